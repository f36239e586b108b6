// The worktree a session entered with EnterWorktree, kept in the session's app state (a spread of the
// state keeps it; nothing global): where it is, and where the session came from, for ExitWorktree.
import { type AppState, type ToolUseContext, updatePermissionContext } from "../../tool/context.ts";

export interface WorktreeSession {
  path: string;
  branch: string;
  repoRoot: string;
  /** The commit the branch started from: commits after it are work that removal would lose. */
  baseCommit: string;
  originalCwd: string;
  originalProjectRoot: string;
}

interface WorktreeAppState extends AppState {
  worktree?: WorktreeSession;
}

export function activeWorktree(context: ToolUseContext): WorktreeSession | undefined {
  return (context.getAppState() as WorktreeAppState).worktree;
}

/** Moves the session into the worktree: its root becomes the project root and the shell's cwd. */
export function enterWorktreeSession(context: ToolUseContext, worktree: WorktreeSession): void {
  context.setAppState((previous) => {
    const next: WorktreeAppState = {
      ...previous,
      cwd: worktree.path,
      worktree,
      toolPermissionContext: updatePermissionContext(previous.toolPermissionContext, {
        projectRoot: worktree.path,
        worktreeRoot: worktree.path,
      }),
    };
    return next;
  });
}

/** Moves the session back to where it was before EnterWorktree. */
export function leaveWorktreeSession(context: ToolUseContext, worktree: WorktreeSession): void {
  context.setAppState((previous) => {
    const { worktree: _left, ...rest } = previous as WorktreeAppState;
    const { worktreeRoot: _root, ...policy } = previous.toolPermissionContext;
    return {
      ...rest,
      cwd: worktree.originalCwd,
      toolPermissionContext: updatePermissionContext({ ...policy } as typeof previous.toolPermissionContext, {
        projectRoot: worktree.originalProjectRoot,
      }),
    };
  });
}
