// EnterWorktree and ExitWorktree on real git repositories in temp folders.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decidePermission } from "../../permissions/engine.ts";
import { loadSettings } from "../../settings/load.ts";
import { initBashParser } from "../../shell/analyze/grammar/parse.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { createToolUseContext, type SessionOptions } from "../../tool/createContext.ts";
import { ToolError } from "../../tool/errors.ts";
import { BashTool } from "../bash/BashTool.ts";
import { callTool } from "../bash/testing/context.ts";
import { ExitWorktreeTool } from "../exit-worktree/ExitWorktreeTool.ts";
import { WriteTool } from "../write/WriteTool.ts";
import { EnterWorktreeTool } from "./EnterWorktreeTool.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "keel-worktree-tools-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));
beforeAll(async () => {
  await initBashParser();
});

let count = 0;
function gitRepo(): string {
  const repo = join(base, `repo${++count}`);
  mkdirSync(repo);
  git(repo, "init", "-q", "-b", "main");
  writeFileSync(join(repo, "README.md"), "hello\n");
  git(repo, "add", "README.md");
  git(repo, "commit", "-q", "-m", "first");
  return repo;
}
function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", ...args], {
    cwd,
    encoding: "utf8",
  });
}
const session = (cwd: string, options: Partial<SessionOptions> = {}) =>
  createToolUseContext({ tools: [EnterWorktreeTool, ExitWorktreeTool], cwd, ...options });
const enter = (context: ToolUseContext, input: Record<string, unknown> = {}) =>
  callTool(EnterWorktreeTool, input, context);
const exit = (context: ToolUseContext, input: Record<string, unknown>) =>
  callTool(ExitWorktreeTool, input, context);
async function failure(run: Promise<unknown>): Promise<ToolError> {
  const error = await run.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

describe("EnterWorktree", () => {
  it("creates a worktree on a new branch under .keel/worktrees and moves the session into it", async () => {
    const repo = gitRepo();
    const context = session(repo);
    const { data, text } = await enter(context, { name: "feature-a" });
    const path = join(repo, ".keel", "worktrees", "feature-a");
    expect(data).toMatchObject({ path, branch: "keel/feature-a", repoRoot: repo, originalCwd: repo });
    expect(text).toContain("moved into it");
    expect(git(path, "rev-parse", "--abbrev-ref", "HEAD").trim()).toBe("keel/feature-a");
    const state = context.getAppState();
    expect(state.cwd).toBe(path);
    expect(state.toolPermissionContext.projectRoot).toBe(path);
    // The main checkout does not see the worktrees folder.
    expect(git(repo, "status", "--porcelain")).toBe("");
    const pwd = await callTool(BashTool, { command: "pwd" }, context);
    expect(pwd.text).toBe(path);
  });

  it("edits inside the worktree follow the mode; its own .git and .keel, and the main .keel, stay protected", async () => {
    const repo = gitRepo();
    const context = session(repo, { mode: "acceptEdits" });
    const { data } = await enter(context, { name: "edits" });
    const decide = async (path: string) =>
      (await decidePermission(WriteTool, { file_path: path, content: "x" }, context)).behavior;
    expect(await decide(join(data.path, "src", "new.ts"))).toBe("allow");
    expect(await decide(join(data.path, ".keel", "settings.json"))).toBe("ask");
    expect(await decide(join(data.path, ".git"))).toBe("ask");
    expect(await decide(join(repo, ".keel", "settings.json"))).toBe("ask");
    expect(await decide(join(repo, "README.md"))).toBe("ask");
    const bash = async (command: string) => (await decidePermission(BashTool, { command }, context)).behavior;
    expect(await bash("echo hi > notes.txt")).toBe("allow");
    expect(await bash("echo hi > .keel/settings.json")).toBe("ask");
  });

  it("asks unless a rule or the mode allows it", async () => {
    const repo = gitRepo();
    expect((await decidePermission(EnterWorktreeTool, {}, session(repo))).behavior).toBe("ask");
    const allowed = session(repo, { allow: ["EnterWorktree", "ExitWorktree"] });
    expect((await decidePermission(EnterWorktreeTool, {}, allowed)).behavior).toBe("allow");
    expect((await decidePermission(ExitWorktreeTool, { action: "keep" }, session(repo))).behavior).toBe(
      "ask",
    );
  });

  it("uses the configured folder, generates a name, and refuses a second worktree, a taken name, or no repository", async () => {
    const repo = gitRepo();
    const folder = join(base, `elsewhere${count}`);
    const context = session(repo, { worktreesDir: folder });
    const { data } = await enter(context);
    expect(data.path.startsWith(`${folder}/wt-`)).toBe(true);
    expect((await failure(enter(context))).code).toBe("wrong_state");
    await exit(context, { action: "keep" });
    const name = data.path.slice(folder.length + 1);
    expect((await failure(enter(context, { name }))).code).toBe("wrong_state");
    const plain = join(base, `plain${count}`);
    mkdirSync(plain);
    expect((await failure(enter(session(plain)))).code).toBe("worktree_failed");
  });

  it("takes worktree.directory from trusted settings only", () => {
    const repo = gitRepo();
    mkdirSync(join(repo, ".keel"), { recursive: true });
    writeFileSync(
      join(repo, ".keel", "settings.json"),
      JSON.stringify({ worktree: { directory: "../trees" } }),
    );
    const env = { HOME: base, KEEL_HOME: join(base, "home"), KEEL_MANAGED_SETTINGS: join(base, "none.json") };
    expect(loadSettings({ cwd: repo, env }).worktreesDir).toBeUndefined();
    expect(loadSettings({ cwd: repo, env, cli: { trust: true } }).worktreesDir).toBe(join(base, "trees"));
  });
});

describe("ExitWorktree", () => {
  it("keep: the session goes back; the worktree and its branch stay", async () => {
    const repo = gitRepo();
    const context = session(repo);
    const { data } = await enter(context, { name: "kept" });
    const result = await exit(context, { action: "keep" });
    expect(result.text).toContain(`back in ${repo}`);
    expect(context.getAppState().cwd).toBe(repo);
    expect(context.getAppState().toolPermissionContext.projectRoot).toBe(repo);
    expect(context.getAppState().toolPermissionContext.worktreeRoot).toBeUndefined();
    expect(existsSync(data.path)).toBe(true);
    expect(git(repo, "branch", "--list", "keel/kept", "--format=%(refname:short)").trim()).toBe("keel/kept");
  });

  it("remove: refuses a worktree with uncommitted files or commits unless told, then removes it and its branch", async () => {
    const repo = gitRepo();
    const context = session(repo);
    const { data } = await enter(context, { name: "busy" });
    writeFileSync(join(data.path, "draft.txt"), "work in progress\n");
    const refused = await failure(exit(context, { action: "remove" }));
    expect(refused.code).toBe("wrong_state");
    expect(refused.message).toContain("draft.txt");
    expect(context.getAppState().cwd).toBe(data.path);
    git(data.path, "add", "draft.txt");
    git(data.path, "commit", "-q", "-m", "draft");
    expect((await failure(exit(context, { action: "remove" }))).message).toContain("1 commit");
    const removed = await exit(context, { action: "remove", discard_changes: true });
    expect(removed.data).toMatchObject({ wasInWorktree: true, discardedCommits: 1 });
    expect(existsSync(data.path)).toBe(false);
    expect(git(repo, "branch", "--list", "keel/busy").trim()).toBe("");
    expect(context.getAppState().cwd).toBe(repo);
  });

  it("remove: a clean worktree goes without discard_changes; outside a worktree nothing happens", async () => {
    const repo = gitRepo();
    const context = session(repo);
    const { data } = await enter(context, { name: "clean" });
    await exit(context, { action: "remove" });
    expect(existsSync(data.path)).toBe(false);
    const none = await exit(context, { action: "remove" });
    expect(none.data.wasInWorktree).toBe(false);
    expect(none.text).toContain("nothing was done");
    expect(ExitWorktreeTool.isDestructive({ action: "remove" })).toBe(true);
    expect(ExitWorktreeTool.isDestructive({ action: "keep" })).toBe(false);
  });
});
