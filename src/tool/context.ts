// What a call knows: the session's permission policy (deeply immutable) and one call's backpack.
import type { PermissionMode, RuleSource } from "../permissions/types.ts";
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
  sandbox: { enabled: boolean; autoAllowBashIfSandboxed: boolean };
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

export function getEmptyToolPermissionContext(projectRoot: string = process.cwd()): ToolPermissionContext {
  return deepFreeze<ToolPermissionContextShape>({
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
  readonly #entries = new Map<string, FileReadRecord>();
  readonly #maxEntries: number;

  constructor(maxEntries = 100) {
    this.#maxEntries = maxEntries;
  }

  get(path: string): FileReadRecord | undefined {
    const entry = this.#entries.get(path);
    if (entry) {
      this.#entries.delete(path);
      this.#entries.set(path, entry);
    }
    return entry;
  }

  set(path: string, record: FileReadRecord): void {
    this.#entries.delete(path);
    this.#entries.set(path, record);
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
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
}

export interface ToolDecisionRecord {
  behavior: "allow" | "deny" | "ask";
  decidedBy: string;
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
}
