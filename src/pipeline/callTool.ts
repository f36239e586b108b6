// Steps 10-15 of one call, after the permission step let it through: the concurrency gate, call() with
// its progress, the output check, post hooks, and the result. Nothing thrown escapes: failures are results.
import type { ToolUseContext } from "../tool/context.ts";
import { errorMessage, ToolError, type ToolErrorCode } from "../tool/errors.ts";
import type { ToolResultBlock, ToolUseBlock } from "../tool/messages.ts";
import { parseContext } from "../tool/parseContext.ts";
import type { Tool, ToolResult } from "../tool/Tool.ts";
import { AsyncQueue } from "./asyncQueue.ts";
import { toToolResultBlock } from "./results.ts";
import type { PipelineEvent, ProgressEvent, ResultEvent } from "./runToolUse.ts";
import type { AuditRecord, HookOutcome, PipelineServices, PostToolUseHookResult } from "./services.ts";

/** What one call records as it goes through the steps: timings, hooks, the decision, text for the result. */
export interface CallState {
  started: number;
  permissionMs: number;
  callMs: number;
  hooks: HookOutcome[];
  classifier?: AuditRecord["classifier"];
  /** The classifier's verdict while it is still coming (recorded later when it misses the decision). */
  classifierPending?: Promise<unknown> | undefined;
  additionalContext: string[];
  userMessages: string[];
  preventContinuation?: boolean;
  stopReason?: string;
  decision?: ResultEvent["decision"];
}

/** A call the permission step let through, with what its last steps record into and end with. */
interface ApprovedCall {
  tool: Tool;
  input: unknown;
  toolUse: ToolUseBlock;
  context: ToolUseContext;
  services: PipelineServices;
  state: CallState;
  finish: (tool: Tool, block: ToolResultBlock, extra?: Partial<ResultEvent>) => ResultEvent;
  fail: (tool: Tool, code: ToolErrorCode, message: string, extra?: Partial<ResultEvent>) => ResultEvent;
}

/** Steps 10-15: the concurrency gate, call(), the output check, post hooks, the result. */
export async function* callTool(call: ApprovedCall): AsyncGenerator<PipelineEvent, void, undefined> {
  const { tool, input, toolUse, context, services, state, finish, fail } = call;
  const signal = context.abortController.signal;
  const release = services.gate ? await services.gate(tool, input, signal) : undefined;
  const callStart = performance.now();
  let outcome: { ok: true; value: ToolResult<unknown> } | { ok: false; error: unknown };
  try {
    if (signal.aborted) {
      yield fail(tool, "aborted", abortMessage(signal, true));
      return;
    }
    const queue = new AsyncQueue<ProgressEvent>();
    const running = Promise.resolve()
      .then(() =>
        tool.call(input, context, allowAlreadyDecided, toolUse, (progress) =>
          queue.push({ type: "progress", toolUseId: toolUse.id, source: "tool", data: progress.data }),
        ),
      )
      .then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      );
    const aborted = new Promise<{ ok: false; error: unknown }>((resolve) => {
      const onAbort = () =>
        resolve({ ok: false, error: new ToolError("aborted", abortMessage(signal, false)) });
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
      void running.finally(() => signal.removeEventListener("abort", onAbort));
    });
    const done = Promise.race([running, aborted]).finally(() => queue.close());
    for await (const progress of queue) yield progress;
    outcome = await done;
  } finally {
    state.callMs = performance.now() - callStart;
    release?.();
  }
  const hookArgs = { tool, input, toolUseId: toolUse.id, context, signal };
  if (outcome.ok && tool.outputSchema) {
    const valid = tool.outputSchema.safeParse(outcome.value.data, parseContext());
    if (!valid.success)
      outcome = {
        ok: false,
        error: new ToolError(
          "invalid_output",
          `${tool.name} returned output that does not match its output schema: ${valid.error.message}`,
        ),
      };
  }
  if (!outcome.ok) {
    const error = outcome.error;
    const code = error instanceof ToolError ? error.code : "tool_failed";
    const message =
      error instanceof ToolError ? error.message : `${tool.name} failed: ${errorMessage(error)}`;
    if (services.hooks) {
      const post = await guard(() =>
        services.hooks!.postToolUseFailure({ ...hookArgs, error: message, isInterrupt: code === "aborted" }),
      );
      if (post.ok && post.value) absorbPostHook(state, post.value);
    }
    yield fail(tool, code, message);
    return;
  }
  const result = outcome.value;
  let extra: Partial<ResultEvent> = {
    output: result.data,
    ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
    ...(result.contextModifier ? { contextModifier: result.contextModifier } : {}),
  };
  if (services.hooks) {
    const post = await guard(() => services.hooks!.postToolUse({ ...hookArgs, response: result.data }));
    if (post.ok && post.value) absorbPostHook(state, post.value);
    else if (!post.ok) state.userMessages.push(`PostToolUse hooks failed: ${errorMessage(post.error)}`);
  }
  const mapped = await guard(() =>
    toToolResultBlock(tool, result.data, toolUse.id, context.options.toolResultsDir),
  );
  if (!mapped.ok) {
    yield fail(
      tool,
      "tool_failed",
      `${tool.name} produced a result that could not be delivered: ${errorMessage(mapped.error)}`,
    );
    return;
  }
  if (mapped.value.persistedPath) extra = { ...extra, persistedPath: mapped.value.persistedPath };
  yield finish(tool, mapped.value.block, extra);
}

/** The pipeline has already decided; a tool asking again (e.g. for a nested call) gets that answer. */
const allowAlreadyDecided = async () => ({ behavior: "allow" as const });

function absorbPostHook(state: CallState, hook: PostToolUseHookResult): void {
  state.hooks.push(...hook.outcomes);
  state.additionalContext.push(...hook.additionalContext);
  if (hook.blockReason) state.additionalContext.push(hook.blockReason);
  state.userMessages.push(...hook.userMessages);
  if (hook.preventContinuation) {
    state.preventContinuation = true;
    state.stopReason = hook.stopReason;
  }
}

/** Runs a step that may throw (a tool's, a hook's code) and hands back its value or its error. */
export async function guard<T>(
  run: () => T | Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** What the model is told about an aborted call, in the abort's own words when it has some. */
export function abortMessage(signal: AbortSignal, before: boolean): string {
  const reason = signal.reason;
  if (reason instanceof Error && reason.name !== "AbortError" && reason.message) return reason.message;
  if (typeof reason === "string" && reason) return reason;
  return before
    ? "Cancelled before it started: the request was aborted."
    : "Interrupted: the call was aborted while running.";
}
