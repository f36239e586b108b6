// ExitWorktree: the session goes back to where it was before EnterWorktree, keeping the worktree and
// its branch, or removing both; a worktree holding work is removed only when told to discard it.
import { readFileSync } from "node:fs";
import * as z from "zod";
import { ToolError } from "../../tool/errors.ts";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { buildTool } from "../../tool/Tool.ts";
import { runGit, worktreeChanges } from "../shared/git.ts";
import { activeWorktree, leaveWorktreeSession } from "../shared/worktreeSession.ts";
import { exitWorktreeToolMeta } from "./meta.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();
const LISTED_FILES = 20;

const inputSchema = z.strictObject({
  action: z
    .enum(["keep", "remove"])
    .describe('"keep" leaves the worktree and its branch on disk; "remove" deletes both'),
  discard_changes: z
    .boolean()
    .optional()
    .describe("With remove: remove even with uncommitted files or commits of its own (confirm first)"),
});

export type ExitWorktreeInput = z.infer<typeof inputSchema>;

export interface ExitWorktreeOutput {
  /** False when the session was not in a worktree (nothing was done). */
  wasInWorktree: boolean;
  action: ExitWorktreeInput["action"];
  path?: string;
  branch?: string;
  returnedTo?: string;
  /** What remove discarded. */
  discardedFiles?: number;
  discardedCommits?: number;
}

function changesMessage(path: string, files: string[], commits: number): string {
  const parts: string[] = [];
  if (files.length > 0)
    parts.push(
      `${files.length} uncommitted file${files.length === 1 ? "" : "s"}: ${files.slice(0, LISTED_FILES).join(", ")}${files.length > LISTED_FILES ? ", ..." : ""}`,
    );
  if (commits > 0) parts.push(`${commits} commit${commits === 1 ? "" : "s"} on its branch`);
  return `The worktree ${path} holds work that removing it would lose (${parts.join("; ")}). Nothing was removed and the session is still in the worktree. Ask the user, then call ExitWorktree again with discard_changes: true to remove it anyway, or with action: "keep".`;
}

function render(output: ExitWorktreeOutput): string {
  if (!output.wasInWorktree)
    return "The session is not in a worktree entered with EnterWorktree; nothing was done.";
  const kept =
    output.action === "keep"
      ? `The worktree ${output.path} and its branch ${output.branch} were kept.`
      : `The worktree ${output.path} and its branch ${output.branch} were removed${output.discardedFiles || output.discardedCommits ? ` (discarding ${output.discardedFiles ?? 0} uncommitted files and ${output.discardedCommits ?? 0} commits)` : ""}.`;
  return `${kept} The session is back in ${output.returnedTo}.`;
}

export const ExitWorktreeTool = buildTool<ExitWorktreeInput, ExitWorktreeOutput>({
  ...exitWorktreeToolMeta,
  searchHint: "leave the git worktree entered with EnterWorktree (keep or remove it)",
  inputSchema,
  maxResultSizeChars: 5_000,
  prompt: () => PROMPT,
  description: (input) => `Leave the worktree (${input.action})`,
  isReadOnly: false,
  isConcurrencySafe: false,
  isDestructive: (input) => input.action === "remove",
  // No checkPermissions of its own: it changes where the session works (and may delete), so it asks
  // unless a rule or the mode allows it.

  async call(input, context) {
    const worktree = activeWorktree(context);
    if (!worktree) return { data: { wasInWorktree: false, action: input.action } };
    if (context.agentId !== undefined)
      throw new ToolError("not_allowed", "A sub-agent cannot move the session out of its worktree.");
    const signal = context.abortController.signal;
    let discarded = { files: 0, commits: 0 };
    if (input.action === "remove") {
      const changes = await worktreeChanges(worktree.path, worktree.baseCommit, signal).catch(
        (error: Error) => {
          throw new ToolError("worktree_failed", `Could not read the worktree's state: ${error.message}`);
        },
      );
      const holdsWork = changes.changedFiles.length > 0 || changes.commits > 0;
      if (holdsWork && input.discard_changes !== true)
        throw new ToolError(
          "wrong_state",
          changesMessage(worktree.path, changes.changedFiles, changes.commits),
        );
      discarded = { files: changes.changedFiles.length, commits: changes.commits };
      try {
        await runGit(["worktree", "remove", "--force", worktree.path], worktree.repoRoot, signal);
        await runGit(["branch", "-D", worktree.branch], worktree.repoRoot, signal);
      } catch (error) {
        throw new ToolError("worktree_failed", `Could not remove the worktree: ${(error as Error).message}`);
      }
    }
    leaveWorktreeSession(context, worktree);
    return {
      data: {
        wasInWorktree: true,
        action: input.action,
        path: worktree.path,
        branch: worktree.branch,
        returnedTo: worktree.originalCwd,
        ...(input.action === "remove"
          ? { discardedFiles: discarded.files, discardedCommits: discarded.commits }
          : {}),
      },
    };
  },

  mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
    return { type: "tool_result", tool_use_id: toolUseId, content: render(output) };
  },
  renderToolUse: (input) => ({ kind: "text", text: `ExitWorktree ${input.action}` }),
  renderToolResult: (output) => ({ kind: "text", text: render(output) }),
});
