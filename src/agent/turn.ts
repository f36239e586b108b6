// One model call: stream the assistant message, start each tool call in the StreamingToolExecutor the
// moment its input is complete, then collect every result in call order. Retryable failures are
// retried with backoff, discarding tools an abandoned response had started.
import type { PipelineEvent, ResultEvent } from "../pipeline/runToolUse.ts";
import { StreamingToolExecutor } from "../pipeline/StreamingToolExecutor.ts";
import type { PipelineServices } from "../pipeline/services.ts";
import type { ToolUseContext } from "../tool/context.ts";
import type { ContentBlock, ToolUseBlock } from "../tool/messages.ts";
import { ProviderError } from "./errors.ts";
import type { AgentEvent } from "./events.ts";
import type { ModelProvider, ModelRequest, StopReason, Usage } from "./provider.ts";
import { abortableSleep, type RetryPolicy, retryDelay } from "./retry.ts";

export interface TurnArgs {
  provider: ModelProvider;
  request: ModelRequest;
  context: ToolUseContext;
  services: PipelineServices;
  retry: RetryPolicy;
  /** Ctrl-C: ends the stream; tools whose interruptBehavior is 'cancel' stop, the others finish. */
  interrupt: AbortSignal;
  turn: number;
  /** Told the finished assistant message as soon as the stream ends, before its tool calls finish (forks copy it). */
  onMessageComplete?: (content: ContentBlock[]) => void;
}

export interface TurnResult {
  /** The assistant message as it goes into the conversation (partial when interrupted). */
  content: ContentBlock[];
  stopReason: StopReason;
  usage: Usage | undefined;
  model: string;
  /** The API's id of the message, when it gave one. */
  messageId?: string;
  results: ResultEvent[];
  /** The context after the calls' context changes. */
  context: ToolUseContext;
  interrupted: boolean;
  error?: ProviderError;
}

/** What arrived before an interruption: text so far and the calls whose input was complete. */
class PartialMessage {
  readonly blocks: ContentBlock[] = [];
  text(delta: string): void {
    const last = this.blocks.at(-1);
    if (last?.type === "text") last.text += delta;
    else this.blocks.push({ type: "text", text: delta });
  }
  tool(block: ToolUseBlock): void {
    this.blocks.push(block);
  }
}

export async function* runTurn(args: TurnArgs): AsyncGenerator<AgentEvent, TurnResult, undefined> {
  const { provider, request, services, retry, interrupt } = args;
  for (let attempt = 1; ; attempt++) {
    const executor = new StreamingToolExecutor(args.context, services);
    const onInterrupt = () => executor.interrupt();
    interrupt.addEventListener("abort", onInterrupt, { once: true });
    const results: ResultEvent[] = [];
    const partial = new PartialMessage();
    const added = new Set<string>();
    const drain = function* (): Generator<AgentEvent> {
      for (const event of executor.getCompletedResults()) yield* toolEvent(event, results);
    };
    try {
      yield { type: "request_start", turn: args.turn, attempt, model: request.model };
      const stream = provider.stream(request, interrupt);
      let response: Awaited<ReturnType<typeof stream.next>>;
      for (;;) {
        response = await stream.next();
        if (response.done) break;
        const event = response.value;
        yield { type: "stream", event };
        if (event.type === "text_delta") partial.text(event.text);
        if (event.type === "tool_use_complete") {
          partial.tool(event.block);
          added.add(event.block.id);
          executor.addTool(event.block);
          if (event.malformed)
            yield {
              type: "notice",
              level: "warning",
              text: `${event.block.name}: the model sent malformed JSON arguments`,
            };
        }
        yield* drain();
      }
      const message = response.value;
      args.onMessageComplete?.(message.content);
      // A call the stream never marked complete still gets run (and so a result), never dropped.
      for (const block of message.content)
        if (block.type === "tool_use" && !added.has(block.id)) executor.addTool(block);
      for await (const event of executor.getRemainingResults()) yield* toolEvent(event, results);
      return {
        content: message.content,
        stopReason: message.stopReason,
        usage: message.usage,
        model: message.model,
        ...(message.id ? { messageId: message.id } : {}),
        results,
        context: executor.context,
        interrupted: interrupt.aborted,
      };
    } catch (caught) {
      const error =
        caught instanceof ProviderError ? caught : new ProviderError("stream_error", String(caught));
      if (error.code === "aborted" || interrupt.aborted) {
        // Keep what the person saw; calls already started finish or stop by their interruptBehavior.
        executor.interrupt();
        for await (const event of executor.getRemainingResults()) yield* toolEvent(event, results);
        return interruptedResult(partial, results, executor.context, request.model);
      }
      executor.discard();
      const delay = retryDelay(error, attempt, retry);
      if (delay === undefined) {
        return {
          content: [],
          stopReason: "other",
          usage: undefined,
          model: request.model,
          results: [],
          context: args.context,
          interrupted: false,
          error,
        };
      }
      yield { type: "retry", attempt, delayMs: delay, error };
      try {
        await abortableSleep(delay, interrupt);
      } catch {
        return interruptedResult(new PartialMessage(), [], args.context, request.model);
      }
    } finally {
      interrupt.removeEventListener("abort", onInterrupt);
    }
  }
}

function* toolEvent(event: PipelineEvent, results: ResultEvent[]): Generator<AgentEvent> {
  if (event.type === "result") {
    results.push(event);
    yield { type: "tool_result", result: event };
  } else yield { type: "tool_progress", toolUseId: event.toolUseId, source: event.source, data: event.data };
}

function interruptedResult(
  partial: PartialMessage,
  results: ResultEvent[],
  context: ToolUseContext,
  model: string,
): TurnResult {
  return {
    content: partial.blocks,
    stopReason: "other",
    usage: undefined,
    model,
    results,
    context,
    interrupted: true,
  };
}
