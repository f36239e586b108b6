import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decidePermission } from "../../permissions/engine.ts";
import { createToolUseContext } from "../../tool/createContext.ts";
import { toolError } from "../shared/testSession.ts";
import { invokeTool } from "../tasks-shared/testing.ts";
import { createSkillTool } from "./SkillTool.ts";

let base: string;
let project: string;
let home: string;

async function put(path: string, text: string) {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "keel-skills-")));
  project = join(base, "project");
  home = join(base, "home");
  await put(
    join(project, ".keel/skills/deploy/SKILL.md"),
    "---\nname: deploy\ndescription: Deploy the app to staging\nargument-hint: <env>\n---\nRun ./deploy.sh $ARGUMENTS from this folder.",
  );
  await put(
    join(project, ".claude/skills/deploy/SKILL.md"),
    "---\nname: deploy\ndescription: shadowed\n---\nold",
  );
  await put(
    join(project, ".claude/skills/pdf/SKILL.md"),
    "---\ndescription: >\n  Extract text and tables\n  from PDF files\n---\n# PDF\nUse pdftotext.",
  );
  await put(
    join(home, ".keel/skills/notes/SKILL.md"),
    "# Notes\n\nKeep meeting notes tidy.\n\nSecret body detail.",
  );
  await put(
    join(home, ".claude/skills/wipe/SKILL.md"),
    "---\ndescription: Wipe caches\ndisable-model-invocation: true\n---\nrm -rf",
  );
  await mkdir(join(home, ".claude/skills/empty-folder"), { recursive: true });
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const tool = () => createSkillTool({ projectRoot: project, env: { KEEL_HOME: home } });
const context = (rules: { deny?: string[] } = {}) =>
  createToolUseContext({ tools: [tool()], cwd: project, ...rules });

describe("Skill discovery", () => {
  it("lists project and user skills with their descriptions in the prompt, without their bodies", async () => {
    const prompt = await tool().prompt({ tools: [] });
    expect(prompt).toContain("- deploy: Deploy the app to staging (args: <env>)");
    expect(prompt).toContain("- pdf: Extract text and tables from PDF files");
    expect(prompt).toContain("- notes: Keep meeting notes tidy.");
    expect(prompt).not.toContain("shadowed");
    expect(prompt).not.toContain("wipe");
    expect(prompt).not.toContain("empty-folder");
    expect(prompt).not.toContain("Secret body detail");
    expect(prompt).not.toContain("deploy.sh");
  });

  it("says so when there are no skills", async () => {
    const none = createSkillTool({
      projectRoot: join(base, "nowhere"),
      env: { KEEL_HOME: join(base, "nohome") },
    });
    expect(await none.prompt({ tools: [] })).toContain("No skills are installed");
  });
});

describe("Skill loading", () => {
  it("loads the body on use, read at that moment, with arguments and the skill's folder", async () => {
    await put(
      join(project, ".keel/skills/deploy/SKILL.md"),
      "---\nname: deploy\ndescription: Deploy\n---\nNew steps: ./deploy.sh $ARGUMENTS",
    );
    const { data, text } = await invokeTool(tool(), { skill: "deploy", args: "staging" }, context());
    expect(data.content).toBe("New steps: ./deploy.sh staging");
    expect(data.source).toBe("project");
    expect(text).toContain(`Base directory for this skill: ${join(project, ".keel/skills/deploy")}`);
  });

  it("appends arguments when the body has no $ARGUMENTS, and tolerates a leading slash", async () => {
    const { data } = await invokeTool(tool(), { skill: "/notes", args: "weekly" }, context());
    expect(data.source).toBe("user");
    expect(data.content).toContain("Secret body detail.\n\nARGUMENTS: weekly");
  });

  it("names the available skills when the one asked for does not exist", async () => {
    const error = await toolError(invokeTool(tool(), { skill: "nope" }, context()));
    expect(error.code).toBe("not_found");
    expect(error.message).toContain("deploy, pdf, notes");
  });

  it("refuses a skill only the user may run", async () => {
    expect((await toolError(invokeTool(tool(), { skill: "wipe" }, context()))).code).toBe("not_allowed");
  });

  it("Skill(name) deny rules apply by exact name or name:* prefix", async () => {
    const skillTool = tool();
    const decide = (skill: string, deny: string[]) =>
      decidePermission(skillTool, { skill }, context({ deny }));
    expect((await decide("deploy", ["Skill(deploy)"])).behavior).toBe("deny");
    expect((await decide("pdf", ["Skill(deploy)"])).behavior).toBe("allow");
    expect((await decide("deploy:prod", ["Skill(deploy:*)"])).behavior).toBe("deny");
    expect((await decide("deployer", ["Skill(deploy:*)"])).behavior).toBe("allow");
  });
});
