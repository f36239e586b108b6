import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scriptedAgent } from "../../agent/testing/harness.ts";
import { type RecordedRequest, text, toolUse } from "../../agent/testing/script.ts";
import type { Tool } from "../../tool/Tool.ts";
import { WriteTool } from "../write/WriteTool.ts";
import { createAgentTool } from "./AgentTool.ts";
import { byPrompt, conversationText, firstUserText, routedScript, systemText } from "./testing.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "keel-worktree-")));
const created: string[] = [];
afterAll(() => {
  // The worktrees' folders (one per repository) live beside the temp dir, not in it.
  for (const path of created) rmSync(dirname(path), { recursive: true, force: true });
  // keel-worktrees itself, when no other run's worktree is in it.
  try {
    rmdirSync(join(tmpdir(), "keel-worktrees"));
  } catch {}
  rmSync(base, { recursive: true, force: true });
});

const tools = [WriteTool, createAgentTool({ projectRoot: base, env: { KEEL_HOME: base } })] as Tool[];
let count = 0;

function gitRepo(): string {
  const repo = join(base, `repo${++count}`);
  mkdirSync(repo);
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", ...args], {
      cwd: repo,
    });
  git("init", "-q", "-b", "main");
  writeFileSync(join(repo, "README.md"), "hello\n");
  git("add", "README.md");
  git("commit", "-q", "-m", "first");
  return repo;
}

function branches(repo: string): string[] {
  return execFileSync("git", ["branch", "--list", "keel/*", "--format=%(refname:short)"], {
    cwd: repo,
    encoding: "utf8",
  })
    .split("\n")
    .filter(Boolean);
}

function worktreeOf(request: RecordedRequest): { path: string; branch: string } {
  const match = /isolated git worktree at (\S+), on the new branch (\S+),/.exec(firstUserText(request));
  if (!match) throw new Error("no worktree in the sub-agent's prompt");
  return { path: match[1]!, branch: match[2]! };
}

const isolated = (prompt: string) =>
  toolUse("Agent", { description: "isolated work", prompt, isolation: "worktree" });

describe('isolation: "worktree"', () => {
  it("runs the sub-agent in a fresh worktree on a new branch, which stays with its changes", async () => {
    const repo = gitRepo();
    let worktree = { path: "", branch: "" };
    const script = routedScript([
      {
        name: "main",
        match: byPrompt("MAIN"),
        turns: [{ blocks: [isolated("CHILD-WT add a file")] }, { blocks: [text("done")] }],
      },
      {
        name: "child",
        match: byPrompt("CHILD-WT"),
        turns: [
          (request) => {
            worktree = worktreeOf(request);
            created.push(worktree.path);
            return {
              blocks: [toolUse("Write", { file_path: join(worktree.path, "added.txt"), content: "new\n" })],
            };
          },
          { blocks: [text("added the file")] },
        ],
      },
    ]);
    const run = await scriptedAgent({
      protocol: "anthropic",
      script,
      tools,
      session: { cwd: repo, mode: "acceptEdits" },
    });
    try {
      await run.run("MAIN task");
      expect(worktree.branch).toMatch(/^keel\/agent_[0-9a-f]{8}$/);
      expect(systemText(script.requestsOf("child")[0]!)).toContain(`Working directory: ${worktree.path}`);
      expect(conversationText(script.requestsOf("child")[1]!)).not.toMatch(/error|denied/i);
      expect(readFileSync(join(worktree.path, "added.txt"), "utf8")).toBe("new\n");
      expect(existsSync(join(repo, "added.txt"))).toBe(false);
      expect(branches(repo)).toEqual([worktree.branch]);
      const result = conversationText(script.requestsOf("main")[1]!);
      expect(result).toContain("added the file");
      expect(result).toContain(
        `Worktree: ${worktree.path} on branch ${worktree.branch} (1 uncommitted change, 0 commits)`,
      );
    } finally {
      await run.close();
    }
  });

  it("removes a worktree and its branch when the sub-agent changed nothing", async () => {
    const repo = gitRepo();
    let worktree = { path: "", branch: "" };
    const script = routedScript([
      {
        name: "main",
        match: byPrompt("MAIN"),
        turns: [{ blocks: [isolated("CHILD-CLEAN look only")] }, { blocks: [text("done")] }],
      },
      {
        name: "child",
        match: byPrompt("CHILD-CLEAN"),
        turns: [
          (request) => {
            worktree = worktreeOf(request);
            created.push(worktree.path);
            return { blocks: [text("nothing to change")] };
          },
        ],
      },
    ]);
    const run = await scriptedAgent({ protocol: "openai", script, tools, session: { cwd: repo } });
    try {
      await run.run("MAIN task");
      expect(conversationText(script.requestsOf("main")[1]!)).toContain(
        `Worktree: the agent changed nothing, so ${worktree.path} and branch ${worktree.branch} were removed.`,
      );
      expect(existsSync(worktree.path)).toBe(false);
      // The repository's folder under keel-worktrees goes with its last worktree.
      expect(existsSync(dirname(worktree.path))).toBe(false);
      expect(branches(repo)).toEqual([]);
    } finally {
      await run.close();
    }
  });

  it("refuses clearly outside a git repository", async () => {
    const plain = join(base, "plain");
    mkdirSync(plain);
    const script = routedScript([
      {
        name: "main",
        match: byPrompt("MAIN"),
        turns: [{ blocks: [isolated("CHILD")] }, { blocks: [text("done")] }],
      },
    ]);
    const run = await scriptedAgent({ protocol: "anthropic", script, tools, session: { cwd: plain } });
    try {
      await run.run("MAIN task");
      expect(conversationText(script.requestsOf("main")[1]!)).toContain(
        `isolation: "worktree" needs a git repository, and ${plain} is not inside one.`,
      );
    } finally {
      await run.close();
    }
  });
});
