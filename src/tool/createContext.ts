// Building a ToolUseContext: for library users, the CLI, the MCP server, the agent and tests alike.
import { resolve } from "node:path";
import type { PermissionMode, RuleSource } from "../permissions/types.ts";
import {
  type AppState,
  addRules,
  FileStateCache,
  getEmptyToolPermissionContext,
  type ToolPermissionContext,
  type ToolUseContext,
  updatePermissionContext,
} from "./context.ts";
import { randomUUID } from "./lazyCrypto.ts";
import { temporaryResultsDir } from "./resultsFolder.ts";
import type { Tools } from "./Tool.ts";

export interface SessionOptions {
  tools: Tools;
  /** The project root and first working directory. Default: process.cwd(). */
  cwd?: string;
  additionalDirectories?: readonly string[];
  mode?: PermissionMode;
  allow?: readonly string[];
  deny?: readonly string[];
  ask?: readonly string[];
  /** Source recorded for allow/deny/ask given here. Default: "cliArg". */
  ruleSource?: RuleSource;
  /** A complete policy; replaces cwd/mode/rules above when given. */
  permissionContext?: ToolPermissionContext;
  sessionId?: string;
  toolResultsDir?: string;
  isNonInteractiveSession?: boolean;
  model?: string;
  signal?: AbortSignal;
  /** Language servers and their policy for the LSP tool (lsp/servers.ts LspOptions). */
  lsp?: unknown;
  /** The session's transcript file, for hooks (transcript_path). */
  transcriptPath?: string;
  /** Where EnterWorktree creates worktrees (settings `worktree.directory`). */
  worktreesDir?: string;
  /** The project folder is trusted: a project's custom commands may grant their `allowed-tools`. */
  projectTrusted?: boolean;
  /** The remote-agent queue, or why there is none (remote/config.ts RemoteQueueResolution). */
  remoteAgents?: unknown;
  /** The session's MCP connections (the resource tools and /mcp find the servers there). */
  mcpClients?: readonly unknown[];
  /** Whether Bash calls can run confined (context.sandbox.confinement); found out when first needed when absent. */
  confinement?: boolean;
}

export function buildPermissionContext(options: Omit<SessionOptions, "tools">): ToolPermissionContext {
  if (options.permissionContext) return options.permissionContext;
  const root = resolve(options.cwd ?? process.cwd());
  const source = options.ruleSource ?? "cliArg";
  let context = updatePermissionContext(getEmptyToolPermissionContext(root), {
    sandbox: {
      enabled: false,
      autoAllowBashIfSandboxed: true,
      ...(options.confinement === undefined ? {} : { confinement: options.confinement }),
    },
    mode: options.mode ?? "default",
    additionalWorkingDirectories: (options.additionalDirectories ?? []).map((dir) => ({
      path: resolve(root, dir),
      source,
    })),
    ruleRoots: { cliArg: root, session: root },
  });
  if (options.allow?.length) context = addRules(context, "allow", source, options.allow);
  if (options.deny?.length) context = addRules(context, "deny", source, options.deny);
  if (options.ask?.length) context = addRules(context, "ask", source, options.ask);
  return context;
}

/** A fresh session context whose app state lives in a closure shared by every call of the session. */
export function createToolUseContext(options: SessionOptions): ToolUseContext {
  const permissionContext = buildPermissionContext(options);
  const sessionId = options.sessionId ?? randomUUID();
  let state: AppState = { toolPermissionContext: permissionContext, cwd: permissionContext.projectRoot };
  const abortController = new AbortController();
  if (options.signal) {
    if (options.signal.aborted) abortController.abort(options.signal.reason);
    else
      options.signal.addEventListener("abort", () => abortController.abort(options.signal?.reason), {
        once: true,
      });
  }
  return {
    options: {
      tools: options.tools,
      sessionId,
      // Given: the caller's (the agent keeps it beside the transcript). Else private, removed with the session.
      toolResultsDir: options.toolResultsDir ?? temporaryResultsDir(sessionId),
      isNonInteractiveSession: options.isNonInteractiveSession ?? true,
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(options.lsp === undefined ? {} : { lsp: options.lsp }),
      ...(options.transcriptPath === undefined ? {} : { transcriptPath: options.transcriptPath }),
      ...(options.worktreesDir === undefined ? {} : { worktreesDir: options.worktreesDir }),
      ...(options.projectTrusted === undefined ? {} : { projectTrusted: options.projectTrusted }),
      ...(options.remoteAgents === undefined ? {} : { remoteAgents: options.remoteAgents }),
      ...(options.mcpClients === undefined ? {} : { mcpClients: options.mcpClients }),
    },
    abortController,
    readFileState: new FileStateCache(),
    getAppState: () => state,
    setAppState: (update) => {
      state = update(state);
    },
    messages: [],
    toolDecisions: new Map(),
  };
}

/** A child context for one call: its own abort controller (aborted with the parent), same session state. */
export function childContext(parent: ToolUseContext): { context: ToolUseContext; dispose: () => void } {
  const abortController = new AbortController();
  const parentSignal = parent.abortController.signal;
  const follow = () => abortController.abort(parentSignal.reason);
  if (parentSignal.aborted) abortController.abort(parentSignal.reason);
  else parentSignal.addEventListener("abort", follow, { once: true });
  return {
    context: { ...parent, abortController },
    dispose: () => parentSignal.removeEventListener("abort", follow),
  };
}
