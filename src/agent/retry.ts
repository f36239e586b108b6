// Backoff for retryable model failures (429, 5xx, overloaded, dropped streams): exponential with
// jitter, the server's retry-after honoured up to the cap, every wait abortable.
import type { ProviderError } from "./errors.ts";

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 5, baseDelayMs: 1000, maxDelayMs: 32_000 };

/** The wait before retry number `attempt` (1-based), or undefined when no retry should happen. */
export function retryDelay(error: ProviderError, attempt: number, policy: RetryPolicy): number | undefined {
  if (!error.retryable || attempt > policy.maxRetries) return undefined;
  if (error.retryAfterMs !== undefined) return Math.min(error.retryAfterMs, policy.maxDelayMs);
  const exponential = Math.min(policy.baseDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
  // Up to 25% jitter so parallel sessions do not retry in lockstep.
  return Math.round(exponential * (1 - Math.random() * 0.25));
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
