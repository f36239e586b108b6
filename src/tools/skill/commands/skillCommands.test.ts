// The model runs a custom command through the Skill tool, as in Claude Code: the command is listed in
// the tool's prompt, and using it expands it through the session's pipeline (scripted model server).
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedAgent } from "../../../agent/testing/harness.ts";
import { text, toolUse } from "../../../agent/testing/script.ts";
import type { AuditRecord } from "../../../pipeline/services.ts";
import { initBashParser } from "../../../shell/analyze/grammar/parse.ts";
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
  put(
    join(project, ".claude/commands/stamp.md"),
    "---\ndescription: Stamp the release\nallowed-tools: Bash(touch:*)\n---\nTouch a stamp file named after the release.",
  );
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

describe("a command's allowed-tools while the model carries it out (Skill)", () => {
  async function stampRun(projectTrusted: boolean, name: string) {
    const skill = createSkillTool({ projectRoot: project, env: { KEEL_HOME: home } });
    const audit: AuditRecord[] = [];
    const run = await scriptedAgent({
      protocol: "anthropic",
      script: [
        { blocks: [toolUse("Skill", { skill: "stamp" })] },
        { blocks: [toolUse("Bash", { command: `touch ${name}-during` })] },
        { blocks: [text("stamped")] },
        // The next prompt: the command's rules are gone.
        { blocks: [toolUse("Bash", { command: `touch ${name}-after` })] },
        { blocks: [text("ok")] },
      ],
      tools: [skill, BashTool, ReadTool] as Tool[],
      session: { cwd: project, projectTrusted },
      services: { audit: { record: (entry) => audit.push(entry) } },
    });
    try {
      await run.run("stamp the release");
      await run.run("and once more, without the command");
      const session = run.agent.context.getAppState().toolPermissionContext.alwaysAllowRules.session ?? [];
      return { bash: audit.filter((entry) => entry.tool === "Bash"), session };
    } finally {
      await run.close();
    }
  }

  it("in a trusted project they allow the model's calls without asking until the prompt is answered", async () => {
    const { bash, session } = await stampRun(true, "trusted");
    expect(bash.map((entry) => entry.behavior)).toEqual(["allow", "deny"]);
    expect(bash[0]!.decidedBy).toContain("Bash(touch:*)");
    expect(existsSync(join(project, "trusted-during"))).toBe(true);
    expect(existsSync(join(project, "trusted-after"))).toBe(false);
    expect(session).toEqual([]);
  });

  it("in an untrusted project they are not applied: the call needs an approval nobody can give", async () => {
    const { bash } = await stampRun(false, "untrusted");
    expect(bash.map((entry) => entry.behavior)).toEqual(["deny", "deny"]);
    expect(existsSync(join(project, "untrusted-during"))).toBe(false);
  });
});
