// EnterWorktree: a new git worktree on a new branch (under `.keel/worktrees/` or the configured folder),
// and the session moves into it: it becomes the project root and the shell's directory.

import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import * as z from "zod";
import { isPathWithin } from "../../permissions/paths.ts";
import { ToolError } from "../../tool/errors.ts";
import { randomBytes } from "../../tool/lazyCrypto.ts";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { buildTool } from "../../tool/Tool.ts";
import { runGit } from "../shared/git.ts";
import { activeWorktree, enterWorktreeSession, type WorktreeSession } from "../shared/worktreeSession.ts";
import { enterWorktreeToolMeta } from "./meta.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

const inputSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "use letters, digits, '.', '_' and '-' (at most 64)")
    .refine((name) => !name.endsWith(".lock") && !name.includes(".."), "not a valid branch name")
    .optional()
    .describe("A short name for the worktree; its branch is keel/<name>. Generated when absent"),
});

export type EnterWorktreeInput = z.infer<typeof inputSchema>;
export type EnterWorktreeOutput = WorktreeSession;

async function repositoryOf(cwd: string, signal: AbortSignal): Promise<{ root: string; head: string }> {
  let root: string;
  try {
    root = (await runGit(["rev-parse", "--show-toplevel"], cwd, signal)).trim();
  } catch {
    throw new ToolError(
      "worktree_failed",
      `EnterWorktree needs a git repository, and ${cwd} is not inside one.`,
    );
  }
  try {
    return { root, head: (await runGit(["rev-parse", "--verify", "HEAD"], root, signal)).trim() };
  } catch {
    throw new ToolError(
      "worktree_failed",
      `The repository at ${root} has no commit yet, and a worktree starts from one. Commit first.`,
    );
  }
}

/** A worktree folder inside the repository is ignored by the main checkout's git status. */
async function ignoreInsideRepository(dir: string, repoRoot: string): Promise<void> {
  if (!isPathWithin(dir, repoRoot) || existsSync(join(dir, ".gitignore"))) return;
  await writeFile(join(dir, ".gitignore"), "# Keel's worktrees: not part of the repository.\n*\n");
}

function render(output: EnterWorktreeOutput): string {
  return [
    `Created a git worktree at ${output.path} on the new branch ${output.branch} (from ${output.baseCommit.slice(0, 12)}), and the session moved into it.`,
    `It is now the project folder and the shell's directory: make every change there. A path under ${output.repoRoot} means the same path under ${output.path}.`,
    "Commit on the branch when the work should be kept. ExitWorktree goes back (keep or remove).",
  ].join("\n");
}

export const EnterWorktreeTool = buildTool<EnterWorktreeInput, EnterWorktreeOutput>({
  ...enterWorktreeToolMeta,
  searchHint: "work in an isolated git worktree on a new branch",
  inputSchema,
  maxResultSizeChars: 5_000,
  prompt: () => PROMPT,
  description: (input) => `Enter a new git worktree${input.name ? ` ${input.name}` : ""}`,
  isReadOnly: false,
  isConcurrencySafe: false,
  // No checkPermissions of its own: it changes where the session works, so it asks unless a rule or
  // the mode allows it.

  async call(input, context) {
    if (context.agentId !== undefined)
      throw new ToolError(
        "not_allowed",
        'A sub-agent cannot move the session into a worktree. The Agent tool\'s isolation: "worktree" gives a sub-agent its own.',
      );
    const current = activeWorktree(context);
    if (current)
      throw new ToolError(
        "wrong_state",
        `The session is already in the worktree ${current.path} (branch ${current.branch}). Leave it with ExitWorktree first.`,
      );
    const signal = context.abortController.signal;
    const state = context.getAppState();
    const { root: repoRoot, head } = await repositoryOf(state.cwd, signal);
    const name = input.name ?? `wt-${randomBytes(3).toString("hex")}`;
    const dir = resolve(repoRoot, context.options.worktreesDir ?? join(".keel", "worktrees"));
    const path = join(dir, name);
    const branch = `keel/${name}`;
    if (existsSync(path))
      throw new ToolError("wrong_state", `${path} already exists. Choose another name for the worktree.`);
    const taken = await runGit(["branch", "--list", branch], repoRoot, signal);
    if (taken.trim() !== "")
      throw new ToolError(
        "wrong_state",
        `The branch ${branch} already exists. Choose another name for the worktree.`,
      );
    await mkdir(dir, { recursive: true });
    await ignoreInsideRepository(dir, repoRoot);
    try {
      await runGit(["worktree", "add", "-b", branch, path, head], repoRoot, signal);
    } catch (error) {
      throw new ToolError("worktree_failed", `Could not create the worktree: ${(error as Error).message}`);
    }
    const worktree: WorktreeSession = {
      path,
      branch,
      repoRoot,
      baseCommit: head,
      originalCwd: state.cwd,
      originalProjectRoot: state.toolPermissionContext.projectRoot,
    };
    enterWorktreeSession(context, worktree);
    return { data: worktree };
  },

  mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
    return { type: "tool_result", tool_use_id: toolUseId, content: render(output) };
  },
  renderToolUse: (input) => ({ kind: "text", text: `EnterWorktree${input.name ? ` ${input.name}` : ""}` }),
  renderToolResult: (output) => ({ kind: "text", text: `In worktree ${output.path} (${output.branch})` }),
});
