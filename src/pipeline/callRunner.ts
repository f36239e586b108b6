// Running one call inside a group of siblings: its own abort controller (linked to the session and to
// the group), progress forwarded as it comes, the result kept for in-order delivery.
import type { ToolUseContext } from "../tool/context.ts";
import type { ToolUseBlock } from "../tool/messages.ts";
import { parseContext } from "../tool/parseContext.ts";
import { findToolByName } from "../tool/registry.ts";
import { safeFlag, type Tool } from "../tool/Tool.ts";
import { parseArguments } from "./input.ts";
import { type PipelineEvent, type ResultEvent, runToolUse } from "./runToolUse.ts";
import type { PipelineServices } from "./services.ts";

export const DEFAULT_MAX_CONCURRENCY = 10;

/** The tool and parsed input when a call can be judged at all; undefined otherwise. */
export function resolveCall(
  call: ToolUseBlock,
  tools: readonly Tool[],
): { tool: Tool; input: unknown } | undefined {
  const tool = findToolByName(tools, call.name);
  if (!tool) return undefined;
  const parsed = parseArguments(call.input);
  if (!parsed.ok) return undefined;
  const checked = tool.inputSchema.safeParse(parsed.value, parseContext());
  return checked.success ? { tool, input: checked.data } : undefined;
}

/** Loads what the call's tool needs to answer the questions below (Tool.prepare); never throws. */
export async function prepareCall(call: ToolUseBlock, tools: readonly Tool[]): Promise<void> {
  const resolved = resolveCall(call, tools);
  if (!resolved?.tool.prepare) return;
  try {
    await resolved.tool.prepare(resolved.input);
  } catch {
    // Unprepared, its questions answer "no" (not parallel, not read-only): that fails closed.
  }
}

/** A call may run beside others only if its tool exists, its input parses, and the tool says so. */
export function isConcurrencySafeCall(call: ToolUseBlock, tools: readonly Tool[]): boolean {
  const resolved = resolveCall(call, tools);
  return resolved !== undefined && safeFlag(() => resolved.tool.isConcurrencySafe(resolved.input), false);
}

function shortInput(input: unknown): string {
  if (input && typeof input === "object") {
    const first = Object.values(input).find((value) => typeof value === "string");
    if (typeof first === "string") return first.length > 40 ? `${first.slice(0, 40)}…` : first;
  }
  return "";
}

/** The reason siblings see when a call whose errors cancel siblings fails. */
export function siblingCancellation(call: ToolUseBlock, tools: readonly Tool[]): Error | undefined {
  const resolved = resolveCall(call, tools);
  if (!resolved?.tool.errorCancelsSiblings) return undefined;
  return new Error(
    `Cancelled: parallel tool call ${resolved.tool.name}(${shortInput(resolved.input)}) errored`,
  );
}

/** An abort controller that also fires when any of the given signals fire; dispose unlinks it. */
export function linkedController(...signals: AbortSignal[]): {
  controller: AbortController;
  dispose: () => void;
} {
  const controller = new AbortController();
  const unlinks: Array<() => void> = [];
  for (const signal of signals) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    const onAbort = () => controller.abort(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    unlinks.push(() => signal.removeEventListener("abort", onAbort));
  }
  return {
    controller,
    dispose: () => {
      for (const unlink of unlinks) unlink();
    },
  };
}

/** Runs one call to completion, forwarding progress; resolves to its result. */
export async function runOneCall(
  call: ToolUseBlock,
  context: ToolUseContext,
  services: PipelineServices,
  onProgress: (event: PipelineEvent) => void,
): Promise<ResultEvent> {
  let result: ResultEvent | undefined;
  for await (const event of runToolUse(call, context, services)) {
    if (event.type === "result") result = event;
    else onProgress(event);
  }
  // runToolUse always yields a result; this guards the contract rather than expecting a path here.
  return (
    result ?? {
      type: "result",
      toolUseId: call.id,
      toolName: call.name,
      block: {
        type: "tool_result",
        tool_use_id: call.id,
        content: "The call ended without a result.",
        is_error: true,
      },
      isError: true,
      errorCode: "tool_failed",
      additionalContext: [],
      userMessages: [],
    }
  );
}
