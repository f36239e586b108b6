// What a call knows: the session's permission policy (deeply immutable) and one call's backpack.
import { userInfo } from "node:os";
import type { DecisionReason, PermissionMode, RuleSource } from "../permissions/types.ts";
import { LruMap } from "./lruMap.ts";
import type { Message } from "./messages.ts";
import type { Tools } from "./Tool.ts";

export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends ReadonlyMap<infer K, infer V>
    ? ReadonlyMap<DeepReadonly<K>, DeepReadonly<V>>
    : T extends readonly (infer E)[]
      ? readonly DeepReadonly<E>[]
      : T extends object
        ? { readonly [P in keyof T]: DeepReadonly<T[P]> }
        : T;

export type RulesBySource = Partial<Record<RuleSource, readonly string[]>>;

export interface WorkingDirectory {
  path: string;
  source: RuleSource;
}

/** The sandbox settings the session runs Bash with (settings `sandbox`, Claude Code's names). */
export interface SandboxPolicySettings {
  enabled: boolean;
  autoAllowBashIfSandboxed: boolean;
  /** Patterns of commands that run outside the sandbox, through the usual permission checks. */
  excludedCommands?: string[];
  /** false: `dangerouslyDisableSandbox` is refused rather than asked. Default true. */
  allowUnsandboxedCommands?: boolean;
  /** Hosts sandboxed commands may reach, beside WebFetch(domain:...) allow rules. */
  allowedDomains?: string[];
  /** Absolute paths sandboxed commands may also write, and may never write. */
  allowWrite?: string[];
  denyWrite?: string[];
  /**
   * Bubblewrap can confine Bash calls here (a fact of the machine, not a setting): calls no person
   * approved then run with protected paths read-only, so a mode or an allow rule may approve commands
   * whose writes the analyzer cannot name; false: those commands ask. Absent: not asked yet, and found
   * out under the caller's PATH when a decision or a call first needs it (canConfine, once per PATH).
   */
  confinement?: boolean;
}

/** An environment as data: a caller's variables (never Keel's own `process.env` below the surface). */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Whose machine the call is judged for: the caller's home (`~` in paths, rules and commands), temp
 * folder and the environment its commands start with. Every surface fills it from its caller (a
 * process's own variables, or the ones a decision server's client sent); nothing below the surface
 * reads `os.homedir()`, `os.tmpdir()` or `process.env`.
 */
export interface CallerEnvironment {
  home: string;
  tmpDir: string;
  env: Env;
}

interface ToolPermissionContextShape {
  mode: PermissionMode;
  /** The project root: where the session started. Always a working directory. */
  projectRoot: string;
  additionalWorkingDirectories: WorkingDirectory[];
  alwaysAllowRules: RulesBySource;
  alwaysDenyRules: RulesBySource;
  alwaysAskRules: RulesBySource;
  /** Where `/relative` path rules of each source are anchored (the settings file's project or home). */
  ruleRoots: Partial<Record<RuleSource, string>>;
  isBypassPermissionsModeAvailable: boolean;
  /** With an OS sandbox active, Bash commands no rule denies may run without asking. */
  sandbox: SandboxPolicySettings;
  /** The caller's home, temp folder and environment (see CallerEnvironment). */
  caller: CallerEnvironment;
  /**
   * The worktree the session entered with EnterWorktree (it is then the project root). Protected
   * folders are judged below it, so its own `.git`, `.keel`... stay protected, but not the
   * `.keel/worktrees/` it lives in.
   */
  worktreeRoot?: string;
}

/** Session policy. Frozen all the way down: a change is a new context. */
export type ToolPermissionContext = DeepReadonly<ToolPermissionContextShape>;

export function deepFreeze<T>(value: T): DeepReadonly<T> {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value as DeepReadonly<T>;
}

/** The caller environment of an environment given as data: HOME (else the account's home), TMPDIR. */
export function callerEnvironment(env: Env): CallerEnvironment {
  return { home: homeOf(env), tmpDir: tmpDirOf(env), env: { ...env } };
}

/** HOME of an environment, else the account's home as the system records it. */
export function homeOf(env: Env): string {
  const home = env.HOME;
  if (home) return home;
  try {
    return userInfo().homedir;
  } catch {
    return "/";
  }
}

/** What `os.tmpdir()` says for this environment (it reads Keel's own). */
function tmpDirOf(env: Env): string {
  const given = env.TMPDIR || env.TMP || env.TEMP || "/tmp";
  return given.length > 1 ? given.replace(/\/+$/, "") : given;
}

/**
 * An empty policy for a library caller or a test: default mode, no rules. The caller is this process
 * (the library's own edge, where process state is the caller's) unless one is given.
 */
export function getEmptyToolPermissionContext(
  projectRoot: string = process.cwd(),
  caller: CallerEnvironment = callerEnvironment(process.env),
): ToolPermissionContext {
  return deepFreeze<ToolPermissionContextShape>({
    caller,
    mode: "default",
    projectRoot,
    additionalWorkingDirectories: [],
    alwaysAllowRules: {},
    alwaysDenyRules: {},
    alwaysAskRules: {},
    ruleRoots: {},
    isBypassPermissionsModeAvailable: true,
    sandbox: { enabled: false, autoAllowBashIfSandboxed: true },
  });
}

type Mutable<T> = { -readonly [P in keyof T]: T[P] };

/** A new frozen context with some fields replaced. */
export function updatePermissionContext(
  context: ToolPermissionContext,
  patch: Partial<Mutable<ToolPermissionContextShape>>,
): ToolPermissionContext {
  return deepFreeze<ToolPermissionContextShape>(
    structuredClone({ ...(context as ToolPermissionContextShape), ...patch }),
  );
}

/** Adds rules of one behaviour from one source, returning a new context. */
export function addRules(
  context: ToolPermissionContext,
  behavior: "allow" | "deny" | "ask",
  source: RuleSource,
  rules: readonly string[],
): ToolPermissionContext {
  const key =
    behavior === "allow" ? "alwaysAllowRules" : behavior === "deny" ? "alwaysDenyRules" : "alwaysAskRules";
  const current = context[key];
  return updatePermissionContext(context, {
    [key]: { ...current, [source]: [...(current[source] ?? []), ...rules] },
  });
}

/** The context without `rules` of that behavior and source, once each (a rule also added by someone else stays). */
export function removeRules(
  context: ToolPermissionContext,
  behavior: "allow" | "deny" | "ask",
  source: RuleSource,
  rules: readonly string[],
): ToolPermissionContext {
  if (rules.length === 0) return context;
  const key =
    behavior === "allow" ? "alwaysAllowRules" : behavior === "deny" ? "alwaysDenyRules" : "alwaysAskRules";
  const current = context[key];
  const kept = [...(current[source] ?? [])];
  for (const rule of rules) {
    const at = kept.lastIndexOf(rule);
    if (at !== -1) kept.splice(at, 1);
  }
  return updatePermissionContext(context, { [key]: { ...current, [source]: kept } });
}

export function workingDirectories(context: ToolPermissionContext): string[] {
  return [context.projectRoot, ...context.additionalWorkingDirectories.map((dir) => dir.path)];
}

/** What one file read left behind, so edits can check the file has not changed since. */
export interface FileReadRecord {
  content: string;
  /** sha256 of the bytes on disk when read. */
  hash: string;
  mtimeMs: number;
  /** Partial views (offset/limit) do not count as "read fully" for overwrite checks. */
  isPartialView: boolean;
  offset?: number;
  limit?: number;
  /**
   * The call whose result showed this content to the model (Read). When that result leaves the
   * conversation (compaction), the record is forgotten: "unchanged since last read" would point at
   * nothing. Writes leave it unset: the model wrote the content itself.
   */
  toolUseId?: string;
}

/** A small LRU keyed by absolute path. */
export class FileStateCache {
  readonly #entries: LruMap<string, FileReadRecord>;

  constructor(maxEntries = 100) {
    this.#entries = new LruMap(maxEntries);
  }

  get(path: string): FileReadRecord | undefined {
    return this.#entries.get(path);
  }

  set(path: string, record: FileReadRecord): void {
    this.#entries.set(path, record);
  }

  delete(path: string): void {
    this.#entries.delete(path);
  }

  has(path: string): boolean {
    return this.#entries.has(path);
  }

  keys(): string[] {
    return [...this.#entries.keys()];
  }

  /** /clear: the new conversation has seen no file. */
  clear(): void {
    this.#entries.clear();
  }

  /** Forgets reads whose result the model no longer has (compacted away); returns their paths. */
  forgetReadsNotShown(visibleToolUseIds: ReadonlySet<string>): string[] {
    const forgotten: string[] = [];
    for (const [path, record] of this.#entries) {
      if (record.toolUseId !== undefined && !visibleToolUseIds.has(record.toolUseId)) forgotten.push(path);
    }
    for (const path of forgotten) this.#entries.delete(path);
    return forgotten;
  }
}

/** Session state that tools may read and change (through setAppState). */
export interface AppState {
  toolPermissionContext: ToolPermissionContext;
  /** The shell's current directory; Bash keeps it between calls. */
  cwd: string;
}

export interface ToolUseOptions {
  tools: Tools;
  sessionId: string;
  /** Where results over budget are saved (the session's tool-results folder). */
  toolResultsDir: string;
  model?: string;
  debug?: boolean;
  verbose?: boolean;
  isNonInteractiveSession: boolean;
  maxBudgetUsd?: number;
  /** Opaque to the pipeline; the MCP client layer puts its connections here. */
  mcpClients?: readonly unknown[];
  /** Opaque to the pipeline; the agent loop puts here how the Agent tool starts sub-agents (tools/agent/runtime.ts). */
  agentRuntime?: unknown;
  /** Opaque to the pipeline; the Agent tool's `isolation: "remote"` reads its queue here (remote/config.ts). */
  remoteAgents?: unknown;
  /** Opaque to the pipeline; the LSP tool reads its servers and their policy here (lsp/servers.ts LspOptions). */
  lsp?: unknown;
  /** Opaque to the pipeline; the agent session puts its scheduler here (CronCreate, ScheduleWakeup). */
  scheduler?: unknown;
  /** The name other sessions of this user send messages to (`--name`), when the session has one. */
  sessionName?: string;
  /** The session's transcript file (`keel run`, the terminal UI), given to hooks as transcript_path. */
  transcriptPath?: string;
  /** Where EnterWorktree creates worktrees (settings `worktree.directory`); default `<repo>/.keel/worktrees`. */
  worktreesDir?: string;
  /**
   * Runs one more tool call through the governed pipeline with the session's services (a custom
   * command's `!` lines and `@file` includes). Set by the agent loop; absent where nobody set it.
   */
  runNestedTool?: NestedToolRunner;
  /** The call was typed by the person (a `!command` in the terminal UI), not made by a model. */
  typedByPerson?: boolean;
  /**
   * The project folder is trusted (its own settings' loosening parts apply): a project's custom
   * commands may then grant their `allowed-tools`. Absent means not trusted.
   */
  projectTrusted?: boolean;
  /** Allow rules for the rest of the current prompt (a custom command's `allowed-tools`). Set by the agent loop. */
  promptRules?: PromptRules;
}

export interface PromptRules {
  /** These rules allow, as session rules, until the prompt being answered is done. */
  allowUntilPromptEnds(rules: readonly string[]): void;
}

export interface NestedToolCall {
  name: string;
  input: Record<string, unknown>;
  /** Allow rules that hold for this call only (a custom command's `allowed-tools`), as session rules. */
  allowRules?: readonly string[];
}

export interface NestedToolResult {
  /** The result's text as the model would see it. */
  text: string;
  isError: boolean;
  /** The call never ran: refused by a rule, hook, person, or nobody to ask; or invalid. */
  refused: boolean;
  decidedBy?: string;
}

export type NestedToolRunner = (call: NestedToolCall, context: ToolUseContext) => Promise<NestedToolResult>;

export interface ToolDecisionRecord {
  behavior: "allow" | "deny" | "ask";
  decidedBy: string;
  /** Who decided: a call a person approved (`type: "user"`) runs unconfined, any other runs confined. */
  reason: DecisionReason;
}

/** One call's backpack. */
export interface ToolUseContext {
  options: ToolUseOptions;
  abortController: AbortController;
  readFileState: FileStateCache;
  getAppState(): AppState;
  setAppState(update: (previous: AppState) => AppState): void;
  messages: readonly Message[];
  fileReadingLimits?: { maxTokens?: number; maxSizeBytes?: number };
  globLimits?: { maxResults?: number };
  toolDecisions?: Map<string, ToolDecisionRecord>;
  /** Set for calls made on behalf of a sub-agent. */
  agentId?: string;
  /** The sub-agent's type (its name), with agentId. */
  agentType?: string;
  /** A sub-agent whose type keeps a memory: its own memory folder (tools/shared/agentMemoryAccess.ts). */
  agentMemory?: AgentMemoryFolder;
}

export interface AgentMemoryFolder {
  agentType: string;
  scope: "user" | "project" | "local";
  /** Absolute path of the agent's memory folder. */
  dir: string;
}
