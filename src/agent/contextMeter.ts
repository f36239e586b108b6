// How full the model's context is: the size last measured (the provider's usage, or an estimate after a
// compaction) plus an estimate of the messages appended since, so compaction starts before a request
// is refused as too long.
import type { Message } from "../tool/messages.ts";
import { estimateTokens } from "./compaction.ts";

export class ContextMeter {
  #tokens = 0;
  #messagesMeasured = 0;

  /** `tokens` held the first `messageCount` messages. */
  measured(tokens: number, messageCount: number): void {
    this.#tokens = tokens;
    this.#messagesMeasured = messageCount;
  }

  estimate(messages: readonly Message[]): number {
    return this.#tokens + estimateTokens(messages.slice(this.#messagesMeasured));
  }
}
