// Batches of calls from one model turn: consecutive parallel-safe calls run together (at most
// maxConcurrency at once), anything else runs alone. [R,R,W,R,R] -> [R,R] [W] [R,R].
import type { ToolUseContext } from "../tool/context.ts";
import type { ToolUseBlock } from "../tool/messages.ts";
import type { Tool } from "../tool/Tool.ts";
import { AsyncQueue } from "./asyncQueue.ts";
import {
  DEFAULT_MAX_CONCURRENCY,
  isConcurrencySafeCall,
  linkedController,
  prepareCall,
  runOneCall,
  siblingCancellation,
} from "./callRunner.ts";
import type { PipelineEvent, ResultEvent } from "./runToolUse.ts";
import type { PipelineServices } from "./services.ts";

export interface Batch {
  parallel: boolean;
  calls: ToolUseBlock[];
}

export function partitionToolCalls(calls: readonly ToolUseBlock[], tools: readonly Tool[]): Batch[] {
  const batches: Batch[] = [];
  for (const call of calls) {
    const parallel = isConcurrencySafeCall(call, tools);
    const last = batches.at(-1);
    if (parallel && last?.parallel) last.calls.push(call);
    else batches.push({ parallel, calls: [call] });
  }
  return batches;
}

export interface RunToolCallsOptions {
  maxConcurrency?: number;
}

function applyModifier(context: ToolUseContext, result: ResultEvent): ToolUseContext {
  if (!result.contextModifier) return context;
  try {
    return result.contextModifier(context);
  } catch {
    return context;
  }
}

/**
 * Runs a turn's calls batch by batch. Progress is yielded as it happens; results in call order.
 * Returns the context after every call's context changes (a parallel batch's after the batch, in order).
 */
export async function* runToolCalls(
  calls: readonly ToolUseBlock[],
  context: ToolUseContext,
  services: PipelineServices = {},
  options: RunToolCallsOptions = {},
): AsyncGenerator<PipelineEvent, ToolUseContext, undefined> {
  let current = context;
  await Promise.all(calls.map((call) => prepareCall(call, context.options.tools)));
  for (const batch of partitionToolCalls(calls, context.options.tools)) {
    // A batch that is not parallel holds exactly one call, so the same runner serves both kinds.
    const limit = batch.parallel ? (options.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY) : 1;
    const results: ResultEvent[] = [];
    yield* runBatch(batch.calls, current, services, limit, results);
    for (const result of results) current = applyModifier(current, result);
  }
  return current;
}

async function* runBatch(
  calls: readonly ToolUseBlock[],
  context: ToolUseContext,
  services: PipelineServices,
  maxConcurrency: number,
  collected: ResultEvent[],
): AsyncGenerator<PipelineEvent, void, undefined> {
  const siblings = new AbortController();
  const queue = new AsyncQueue<PipelineEvent>();
  const results: Array<ResultEvent | undefined> = new Array(calls.length);
  let next = 0;
  let flushed = 0;
  let running = 0;

  const flush = () => {
    while (flushed < calls.length && results[flushed]) {
      const result = results[flushed]!;
      collected.push(result);
      queue.push(result);
      flushed++;
    }
    if (flushed === calls.length) queue.close();
  };

  const startMore = () => {
    while (running < Math.max(1, maxConcurrency) && next < calls.length) {
      const index = next++;
      const call = calls[index]!;
      running++;
      const { controller, dispose } = linkedController(context.abortController.signal, siblings.signal);
      void runOneCall(call, { ...context, abortController: controller }, services, (event) =>
        queue.push(event),
      ).then((result) => {
        dispose();
        running--;
        results[index] = result;
        if (result.isError && result.errorCode !== "aborted" && !siblings.signal.aborted) {
          const reason = siblingCancellation(call, context.options.tools);
          if (reason) siblings.abort(reason);
        }
        flush();
        startMore();
      });
    }
  };

  if (calls.length === 0) return;
  startMore();
  for await (const event of queue) yield event;
}
