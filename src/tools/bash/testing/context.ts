// Test sessions for the shell tools: a real project folder under the temp dir, a real ToolUseContext,
// and a helper that calls a tool the way the pipeline does (validate, call, map the result).
import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach } from "vitest";
import { type DecisionReason, describeDecider, type PermissionMode } from "../../../permissions/types.ts";
import { initBashParser } from "../../../shell/analyze/grammar/parse.ts";
import { killAllBackgroundTasks } from "../../../shell/run/background.ts";
import { type ToolUseContext, updatePermissionContext } from "../../../tool/context.ts";
import { buildPermissionContext, createToolUseContext } from "../../../tool/createContext.ts";
import { resultText, type ToolResultBlock, type ToolUseBlock } from "../../../tool/messages.ts";
import type { Tool, ToolProgress } from "../../../tool/Tool.ts";

export interface ShellTestSession {
  /** The project root (symlinks resolved), a fresh temp folder. */
  root: string;
  /** A folder outside every working directory. */
  outside: string;
  context: ToolUseContext;
  cleanup(): Promise<void>;
}

export interface ShellTestSessionOptions {
  sandbox?: boolean;
  allow?: string[];
  deny?: string[];
  additionalDirectories?: string[];
}

export async function createShellTestSession(
  options: ShellTestSessionOptions = {},
): Promise<ShellTestSession> {
  const base = await realpath(await mkdtemp(join(tmpdir(), "keel-shell-")));
  const root = join(base, "project");
  const outside = join(base, "outside");
  await mkdir(root);
  await mkdir(outside);
  let permissionContext = buildPermissionContext({
    cwd: root,
    ...(options.allow ? { allow: options.allow } : {}),
    ...(options.deny ? { deny: options.deny } : {}),
    ...(options.additionalDirectories ? { additionalDirectories: options.additionalDirectories } : {}),
  });
  if (options.sandbox)
    permissionContext = updatePermissionContext(permissionContext, {
      sandbox: { enabled: true, autoAllowBashIfSandboxed: true },
    });
  const sessionId = randomUUID();
  const context = createToolUseContext({
    tools: [],
    permissionContext,
    sessionId,
    toolResultsDir: join(base, "tool-results"),
  });
  return {
    root,
    outside,
    context,
    cleanup: async () => {
      await killAllBackgroundTasks(sessionId);
      await rm(base, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh session for each test of the file (the Bash parser loaded once before them), ended after the
 * test: its background tasks stopped, its folder removed. Its fields are read when a test runs.
 */
export function shellSessionForEachTest(options: ShellTestSessionOptions = {}): ShellTestSession {
  let session: ShellTestSession | undefined;
  const current = (): ShellTestSession => {
    if (!session) throw new Error("The session is made in beforeEach: use it in a test or a hook.");
    return session;
  };
  beforeAll(async () => {
    await initBashParser();
  });
  beforeEach(async () => {
    session = await createShellTestSession(options);
  });
  afterEach(async () => {
    await session?.cleanup();
    session = undefined;
  });
  return {
    get root() {
      return current().root;
    },
    get outside() {
      return current().outside;
    },
    get context() {
      return current().context;
    },
    cleanup: () => current().cleanup(),
  };
}

/** The mode and project rules a decision test sets. */
export interface RuleSetup {
  mode?: PermissionMode;
  allow?: string[];
  deny?: string[];
  ask?: string[];
}

/** A context in `root` (default mode, no rules unless the setup gives them) for deciding calls of `tool`. */
export function ruleContext(tool: Tool, root: string, setup: RuleSetup): ToolUseContext {
  return createToolUseContext({
    tools: [tool],
    cwd: root,
    mode: setup.mode ?? "default",
    allow: setup.allow ?? [],
    deny: setup.deny ?? [],
    ask: setup.ask ?? [],
    ruleSource: "project",
  });
}

export interface ToolCallOutcome<Output, Progress> {
  data: Output;
  block: ToolResultBlock;
  text: string;
  progress: Progress[];
}

/** What the pipeline records when a person approved a call (Bash then runs it unconfined). */
export const APPROVED_BY_PERSON: DecisionReason = { type: "user", prompter: "test", choice: "once" };

/**
 * Validates and calls a tool, and maps its output as the pipeline would. Throws what the tool throws.
 * `approvedBy`: the decision the pipeline would have recorded for the call (none: a call made outside it).
 */
export async function callTool<Input, Output, Progress>(
  tool: Tool<Input, Output, Progress>,
  rawInput: unknown,
  context: ToolUseContext,
  approvedBy?: DecisionReason,
): Promise<ToolCallOutcome<Output, Progress>> {
  const input = tool.inputSchema.parse(rawInput) as Input;
  const validation = await tool.validateInput?.(input, context);
  if (validation && !validation.result) throw new Error(`invalid input: ${validation.message}`);
  const progress: Progress[] = [];
  const toolUse: ToolUseBlock | undefined = approvedBy
    ? { type: "tool_use", id: `toolu_${randomUUID()}`, name: tool.name, input: rawInput }
    : undefined;
  if (toolUse && approvedBy)
    context.toolDecisions?.set(toolUse.id, {
      behavior: "allow",
      decidedBy: describeDecider(approvedBy),
      reason: approvedBy,
    });
  const result = await tool.call(
    input,
    context,
    async () => ({ behavior: "allow" }),
    toolUse,
    (update: ToolProgress<Progress>) => progress.push(update.data),
  );
  const block = tool.mapToolResultToToolResultBlockParam(result.data, "toolu_test");
  return { data: result.data, block, text: resultText(block.content), progress };
}
