// Custom slash commands from real command files: discovery, arguments, `!` lines and @files through the
// governed pipeline (rules, audit, nobody to ask), allowed-tools for the expansion only.
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decidePermission } from "../../../permissions/engine.ts";
import { createNestedToolRunner } from "../../../pipeline/nestedToolUse.ts";
import type { AuditRecord } from "../../../pipeline/services.ts";
import { initBashParser } from "../../../shell/analyze/grammar/parse.ts";
import { createToolUseContext } from "../../../tool/createContext.ts";
import { ToolError } from "../../../tool/errors.ts";
import { BashTool } from "../../bash/BashTool.ts";
import { ReadTool } from "../../read/ReadTool.ts";
import { commandRoots, discoverCommands, findCommand, parseAllowedTools } from "./discoverCommands.ts";
import { expandCommand } from "./expandCommand.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "keel-commands-")));
const project = join(base, "project");
const home = join(base, "home");
const outside = join(base, "outside");
afterAll(() => rmSync(base, { recursive: true, force: true }));

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

beforeAll(async () => {
  await initBashParser();
  put(
    join(project, ".claude/commands/review.md"),
    "---\ndescription: Review a file\nargument-hint: <file> [focus]\nallowed-tools: Bash(touch:*), Read\nmodel: claude-review-model\n---\nReview $1 with a focus on $2.\nAll arguments: $ARGUMENTS\n",
  );
  put(join(project, ".claude/commands/frontend/component.md"), "# Make a component\nCreate the component.\n");
  put(join(project, ".keel/commands/deploy.md"), "---\ndescription: Keel's deploy\n---\nDeploy now.");
  put(join(project, ".claude/commands/deploy.md"), "---\ndescription: shadowed\n---\nold");
  put(join(home, ".claude/commands/notes.md"), "---\ndisable-model-invocation: true\n---\nTidy the notes.");
  put(
    join(project, ".claude/commands/status.md"),
    "Branch: !`git branch --show-current` and files:\n!`ls`\n",
  );
  put(
    join(project, ".claude/commands/mark.md"),
    "---\nallowed-tools: Bash(touch:*)\n---\nMarked: !`touch marker-$1 && echo done`",
  );
  put(join(project, ".claude/commands/unmarked.md"), "Marked: !`touch unmarked && echo done`");
  put(
    join(home, ".keel/commands/stamp.md"),
    "---\nallowed-tools: Bash(touch:*)\n---\nStamped: !`touch stamp-$1 && echo done`",
  );
  put(
    join(project, ".claude/commands/include.md"),
    "Look at @notes.txt and @missing.txt, not user@example.com.",
  );
  put(join(project, ".claude/commands/secret.md"), `Read @${join(outside, "secret.txt")}`);
  put(join(project, "notes.txt"), "alpha\nbeta\n");
  put(join(outside, "secret.txt"), "do not send\n");
  mkdirSync(join(project, ".git"));
});

const env = { KEEL_HOME: home, HOME: home };

async function commands() {
  return discoverCommands(commandRoots(project, env));
}

function session(audit: AuditRecord[] = [], projectTrusted = true) {
  const context = createToolUseContext({ tools: [BashTool, ReadTool], cwd: project, projectTrusted });
  const runTool = createNestedToolRunner({ audit: { record: (entry) => audit.push(entry) } });
  return { context, runTool, audit };
}

async function expand(line: string, withRunner = true, audit: AuditRecord[] = [], projectTrusted = true) {
  const found = findCommand(await commands(), line);
  if (!found) throw new Error(`no command for ${line}`);
  const { context, runTool } = session(audit, projectTrusted);
  return {
    context,
    expanded: await expandCommand(found.command, found.args, {
      context,
      home,
      ...(withRunner ? { runTool } : {}),
    }),
  };
}

async function refusal(run: Promise<unknown>): Promise<ToolError> {
  const error = await run.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

describe("custom command files", () => {
  it("are found in .keel/commands, .claude/commands and the user's folders, namespaced by folder", async () => {
    const found = await commands();
    expect(found.map((command) => `${command.name} (${command.source})`)).toEqual([
      "deploy (project)",
      "frontend:component (project)",
      "include (project)",
      "mark (project)",
      "review (project)",
      "secret (project)",
      "status (project)",
      "unmarked (project)",
      "stamp (user)",
      "notes (user)",
    ]);
    const review = found.find((command) => command.name === "review")!;
    expect(review).toMatchObject({
      description: "Review a file",
      argumentHint: "<file> [focus]",
      allowedTools: ["Bash(touch:*)", "Read"],
      model: "claude-review-model",
      modelInvocable: true,
    });
    expect(found.find((command) => command.name === "deploy")!.description).toBe("Keel's deploy");
    expect(found.find((command) => command.name === "frontend:component")!.description).toBe(
      "Make a component",
    );
    expect(found.find((command) => command.name === "notes")!.modelInvocable).toBe(false);
    expect(findCommand(found, "/frontend:component   a b")?.args).toBe("a b");
    expect(findCommand(found, "/nope")).toBeUndefined();
  });

  it("read allowed-tools as rules, split on commas outside parentheses", () => {
    expect(parseAllowedTools("Bash(git add:*), Bash(git commit -m x,y), Read")).toEqual([
      "Bash(git add:*)",
      "Bash(git commit -m x,y)",
      "Read",
    ]);
    expect(parseAllowedTools(["Read", "Grep"])).toEqual(["Read", "Grep"]);
  });
});

describe("expanding a command", () => {
  it("puts in $ARGUMENTS and $1..$9 (quotes group words), and keeps the command's model", async () => {
    const { expanded } = await expand('/review src/app.ts "error handling"');
    expect(expanded.prompt).toBe(
      'Review src/app.ts with a focus on error handling.\nAll arguments: src/app.ts "error handling"',
    );
    expect(expanded.model).toBe("claude-review-model");
    const { expanded: appended } = await expand("/deploy to staging");
    expect(appended.prompt).toBe("Deploy now.\n\nARGUMENTS: to staging");
  });

  it("runs !`cmd` lines through the pipeline (audited) and puts their output in their place", async () => {
    const audit: AuditRecord[] = [];
    const { expanded } = await expand("/status", true, audit);
    expect(expanded.prompt).toContain("files:\nnotes.txt");
    expect(audit.map((entry) => [entry.tool, entry.behavior])).toEqual([
      ["Bash", "allow"],
      ["Bash", "allow"],
    ]);
  });

  it("refuses the whole command when a line needs an approval nobody can give; allowed-tools allows it for that expansion only", async () => {
    const error = await refusal(expand("/unmarked"));
    expect(error.code).toBe("permission_denied");
    expect(error.message).toContain("touch unmarked");
    expect(existsSync(join(project, "unmarked"))).toBe(false);
    const { expanded, context } = await expand("/mark one");
    expect(expanded.prompt).toBe("Marked: done");
    expect(existsSync(join(project, "marker-one"))).toBe(true);
    // The session did not keep the command's rule.
    expect(context.getAppState().toolPermissionContext.alwaysAllowRules.session ?? []).toEqual([]);
    const again = await decidePermission(BashTool, { command: "touch marker-two" }, context);
    expect(again.behavior).toBe("ask");
  });

  it("a project's allowed-tools apply only in a trusted folder (like its allow rules); a user's always do", async () => {
    const error = await refusal(expand("/mark untrusted", true, [], false));
    expect(error.code).toBe("permission_denied");
    expect(error.message).toContain("The command's allowed-tools were not applied");
    expect(error.message).toContain("not trusted");
    expect(existsSync(join(project, "marker-untrusted"))).toBe(false);
    const { expanded: trusted } = await expand("/mark trusted");
    expect(trusted.allowRules).toEqual(["Bash(touch:*)"]);
    const { expanded: user } = await expand("/stamp one", true, [], false);
    expect(user.prompt).toBe("Stamped: done");
    expect(user.allowRules).toEqual(["Bash(touch:*)"]);
    expect(existsSync(join(project, "stamp-one"))).toBe(true);
  });

  it("includes @files through the Read tool; a file outside the working directories is refused, not sent", async () => {
    const { expanded } = await expand("/include");
    expect(expanded.prompt).toContain(`Contents of @notes.txt (${join(project, "notes.txt")}):`);
    expect(expanded.prompt).toContain("alpha");
    expect(expanded.prompt).not.toContain("missing.txt (");
    const error = await refusal(expand("/secret"));
    expect(error.code).toBe("permission_denied");
    expect(error.message).not.toContain("do not send");
  });

  it("without the session's pipeline, a command that runs lines is refused; a plain one expands", async () => {
    expect((await refusal(expand("/status", false))).code).toBe("no_agent_loop");
    expect((await expand("/frontend:component x", false)).expanded.prompt).toContain("Create the component.");
  });
});
