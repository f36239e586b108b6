// A sub-agent's tool context: its own id, abort controller, file-read cache and shell directory, over
// the parent's session policy. Permission changes it makes (an "always allow" answer) reach the session;
// its directory, a worktree root or a stricter mode (Explore's plan) stay its own.
import type { PermissionMode } from "../../permissions/types.ts";
import {
  type AgentMemoryFolder,
  type AppState,
  FileStateCache,
  type ToolPermissionContext,
  type ToolUseContext,
  updatePermissionContext,
} from "../../tool/context.ts";
import type { Tool } from "../../tool/Tool.ts";

export interface SubagentContextOptions {
  agentId: string;
  /** The agent type's name, for hooks (agent_type). */
  agentType?: string;
  /** The agent type's memory folder, which its file tools may write without asking. */
  memory?: AgentMemoryFolder;
  tools: readonly Tool[];
  cwd: string;
  /** A worktree: the agent's working directory instead of the project root. */
  projectRoot?: string;
  /** A mode for this agent only; only plan (stricter) is ever set here. */
  mode?: PermissionMode;
  /** Forks start with what the parent has read; other agents read for themselves. */
  inheritReads?: boolean;
}

function copyReads(from: FileStateCache): FileStateCache {
  const copy = new FileStateCache();
  for (const path of from.keys()) {
    const record = from.get(path);
    if (record) copy.set(path, { ...record });
  }
  return copy;
}

export function subagentContext(parent: ToolUseContext, options: SubagentContextOptions): ToolUseContext {
  let cwd = options.cwd;
  const patched = options.projectRoot !== undefined || options.mode !== undefined;
  let memo: { from: ToolPermissionContext; to: ToolPermissionContext } | undefined;
  const view = (policy: ToolPermissionContext): ToolPermissionContext => {
    if (!patched) return policy;
    if (memo?.from !== policy) {
      // dontAsk refuses what plan would ask about: a session in dontAsk keeps it.
      const mode = options.mode && policy.mode !== "dontAsk" ? options.mode : policy.mode;
      memo = {
        from: policy,
        to: updatePermissionContext(policy, {
          mode,
          ...(options.projectRoot ? { projectRoot: options.projectRoot } : {}),
        }),
      };
    }
    return memo.to;
  };
  const getAppState = (): AppState => {
    const state = parent.getAppState();
    return { ...state, cwd, toolPermissionContext: view(state.toolPermissionContext) };
  };
  const setAppState = (update: (previous: AppState) => AppState): void => {
    const before = getAppState();
    const next = update(before);
    cwd = next.cwd;
    if (next.toolPermissionContext === before.toolPermissionContext) return;
    parent.setAppState((previous) => {
      const own = previous.toolPermissionContext;
      const policy = patched
        ? updatePermissionContext(next.toolPermissionContext, {
            projectRoot: own.projectRoot,
            mode: own.mode,
          })
        : next.toolPermissionContext;
      return { ...previous, toolPermissionContext: policy };
    });
  };
  return {
    options: { ...parent.options, tools: options.tools },
    abortController: new AbortController(),
    readFileState: options.inheritReads ? copyReads(parent.readFileState) : new FileStateCache(),
    getAppState,
    setAppState,
    messages: [],
    toolDecisions: new Map(),
    agentId: options.agentId,
    ...(options.agentType ? { agentType: options.agentType } : {}),
    ...(options.memory ? { agentMemory: options.memory } : {}),
    ...(parent.fileReadingLimits ? { fileReadingLimits: parent.fileReadingLimits } : {}),
    ...(parent.globLimits ? { globLimits: parent.globLimits } : {}),
  };
}
