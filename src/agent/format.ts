// Short text for people: errors without stack traces, token counts and dollars.
import { errorMessage } from "../tool/errors.ts";
import { ProviderError } from "./errors.ts";
import type { Usage } from "./provider.ts";

export function errorMessageForUser(error: unknown): string {
  if (error instanceof ProviderError) return error.message;
  return errorMessage(error);
}

export function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(count < 10_000 ? 1 : 0)}k`;
  return `${(count / 1_000_000).toFixed(2)}M`;
}

export function formatCost(usd: number | undefined): string {
  if (usd === undefined) return "unknown (no price for this model)";
  return usd < 0.01 && usd > 0 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

export function formatUsage(usage: Usage): string {
  const cache =
    usage.cacheReadInputTokens || usage.cacheCreationInputTokens
      ? `, cache read ${formatTokens(usage.cacheReadInputTokens)}, cache write ${formatTokens(usage.cacheCreationInputTokens)}`
      : "";
  return `${formatTokens(usage.inputTokens)} in, ${formatTokens(usage.outputTokens)} out${cache}`;
}

/** The text as a sentence of its own: ends with a full stop unless it already ends a sentence. */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === "") return trimmed;
  return /[.!?…]["')\]]?$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** "Retrying in 2.0 s (attempt 1)." after the error's own sentence. */
export function retryNotice(message: string, delayMs: number, attempt: number): string {
  return `${asSentence(message)} Retrying in ${(delayMs / 1000).toFixed(1)} s (attempt ${attempt}).`;
}
