// The model runs a custom command through the Skill tool, as in Claude Code: the command is listed in
// the tool's prompt, and using it expands it through the session's pipeline (scripted model server).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedAgent } from "../../../agent/testing/harness.ts";
import { text, toolUse } from "../../../agent/testing/script.ts";
import type { AuditRecord } from "../../../pipeline/services.ts";
import { initBashParser } from "../../../shell/parse.ts";
import type { Tool } from "../../../tool/Tool.ts";
import { conversationText } from "../../agent/testing.ts";
import { BashTool } from "../../bash/BashTool.ts";
import { ReadTool } from "../../read/ReadTool.ts";
import { createSkillTool } from "../SkillTool.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "keel-skill-commands-")));
const project = join(base, "project");
const home = join(base, "home");
afterAll(() => rmSync(base, { recursive: true, force: true }));

function put(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

beforeAll(async () => {
  await initBashParser();
  put(
    join(project, ".claude/commands/changelog.md"),
    "---\ndescription: Draft the changelog entry\nargument-hint: <version>\n---\nWrite the entry for $1. Files: !`ls`",
  );
  put(join(project, ".claude/commands/wipe.md"), "---\ndisable-model-invocation: true\n---\nWipe.");
  put(join(project, "CHANGES.md"), "# Changes\n");
});

describe("custom commands through the Skill tool", () => {
  it("are listed for the model, and a call expands one with its shell lines run through the pipeline", async () => {
    const skill = createSkillTool({ projectRoot: project, env: { KEEL_HOME: home } });
    expect(await skill.prompt({ tools: [] })).toContain(
      "- changelog: Draft the changelog entry (args: <version>)",
    );
    expect(await skill.prompt({ tools: [] })).not.toContain("wipe");
    const audit: AuditRecord[] = [];
    const run = await scriptedAgent({
      protocol: "anthropic",
      script: [
        { blocks: [toolUse("Skill", { skill: "/changelog", args: "1.4.0" })] },
        { blocks: [toolUse("Skill", { skill: "wipe" })] },
        { blocks: [text("done")] },
      ],
      tools: [skill, BashTool, ReadTool] as Tool[],
      session: { cwd: project },
      services: { audit: { record: (entry) => audit.push(entry) } },
    });
    try {
      await run.run("prepare the release");
      const conversation = conversationText(run.server.requests[2]!);
      expect(conversation).toContain("Command /changelog loaded");
      expect(conversation).toContain("Write the entry for 1.4.0. Files: CHANGES.md");
      expect(conversation).toContain("only the user can run it");
      expect(audit.map((entry) => `${entry.tool}:${entry.behavior}`)).toEqual([
        "Bash:allow",
        "Skill:allow",
        "Skill:allow",
      ]);
    } finally {
      await run.close();
    }
  });
});
