// What both providers do the same way while reading a streamed answer: the usage they start from, a
// tool call whose arguments are complete, and how a stream that failed or stopped short is reported.
import type { ToolUseBlock } from "../../tool/messages.ts";
import { classifyProviderError, type ErrorSite, ProviderError } from "../errors.ts";
import { parseToolArguments } from "../jsonRepair.ts";
import type { StreamEvent, Usage } from "../provider.ts";

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };
}

/** Sets the call's input from its streamed JSON (repaired, or kept raw when it cannot be parsed). */
export function completeToolUse(block: ToolUseBlock, json: string): StreamEvent {
  const parsed = parseToolArguments(json);
  block.input = parsed.ok ? parsed.value : parsed.raw;
  return {
    type: "tool_use_complete",
    block: { ...block },
    ...(parsed.ok && parsed.repaired ? { repaired: true } : {}),
    ...(parsed.ok ? {} : { malformed: true }),
  };
}

function interrupted(): ProviderError {
  return new ProviderError("aborted", "The request was interrupted.");
}

/** The error to throw for a stream that failed: an interrupt, or the provider's error classified. */
export function streamFailure(error: unknown, signal: AbortSignal, site: ErrorSite): ProviderError {
  return signal.aborted ? interrupted() : classifyProviderError(error, site);
}

/** Throws when the stream ended without the whole message: interrupted, or cut off (retryable). */
export function assertStreamComplete(signal: AbortSignal, complete: boolean, site: ErrorSite): void {
  if (signal.aborted) throw interrupted();
  if (!complete)
    throw new ProviderError(
      "stream_error",
      `The ${site.service} stream ended before the message was complete.`,
      { retryable: true },
    );
}
