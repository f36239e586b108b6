// What Keel knows about models: context window and price. Unknown models (local ones above all) get a
// conservative window and no price; both can be set explicitly.
import type { ProviderName, Usage } from "./provider.ts";

/** US dollars per million tokens. Cache writes and reads default to 1.25x and 0.1x input. */
export interface ModelPricing {
  input: number;
  output: number;
  cacheWrite?: number;
  cacheRead?: number;
}

export interface ModelInfo {
  contextWindow: number;
  maxOutputTokens: number;
  pricing?: ModelPricing;
}

interface CatalogEntry extends ModelInfo {
  /** Matched against the start of the model name, longest first. */
  prefix: string;
}

const CATALOG: CatalogEntry[] = [
  {
    prefix: "claude-opus-4-1",
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    pricing: { input: 15, output: 75 },
  },
  {
    prefix: "claude-opus-4-0",
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    pricing: { input: 15, output: 75 },
  },
  {
    prefix: "claude-opus-4",
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    pricing: { input: 5, output: 25 },
  },
  {
    prefix: "claude-sonnet-4",
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    pricing: { input: 3, output: 15 },
  },
  {
    prefix: "claude-3-7-sonnet",
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    pricing: { input: 3, output: 15 },
  },
  {
    prefix: "claude-haiku-4",
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    pricing: { input: 1, output: 5 },
  },
  {
    prefix: "claude-3-5-haiku",
    contextWindow: 200_000,
    maxOutputTokens: 8_192,
    pricing: { input: 0.8, output: 4 },
  },
  { prefix: "claude", contextWindow: 200_000, maxOutputTokens: 8_192 },
  {
    prefix: "gpt-5-mini",
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    pricing: { input: 0.25, output: 2, cacheRead: 0.025 },
  },
  {
    prefix: "gpt-5-nano",
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    pricing: { input: 0.05, output: 0.4, cacheRead: 0.005 },
  },
  {
    prefix: "gpt-5",
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    pricing: { input: 1.25, output: 10, cacheRead: 0.125 },
  },
  {
    prefix: "gpt-4.1-mini",
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    pricing: { input: 0.4, output: 1.6, cacheRead: 0.1 },
  },
  {
    prefix: "gpt-4.1-nano",
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    pricing: { input: 0.1, output: 0.4, cacheRead: 0.025 },
  },
  {
    prefix: "gpt-4.1",
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    pricing: { input: 2, output: 8, cacheRead: 0.5 },
  },
  {
    prefix: "gpt-4o-mini",
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    pricing: { input: 0.15, output: 0.6, cacheRead: 0.075 },
  },
  {
    prefix: "gpt-4o",
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    pricing: { input: 2.5, output: 10, cacheRead: 1.25 },
  },
  {
    prefix: "o4-mini",
    contextWindow: 200_000,
    maxOutputTokens: 100_000,
    pricing: { input: 1.1, output: 4.4, cacheRead: 0.275 },
  },
  {
    prefix: "o3",
    contextWindow: 200_000,
    maxOutputTokens: 100_000,
    pricing: { input: 2, output: 8, cacheRead: 0.5 },
  },
];

/** Local and unknown models: a window most local servers allow, and no price. */
const UNKNOWN: ModelInfo = { contextWindow: 32_000, maxOutputTokens: 8_192 };

export const DEFAULT_MODELS: Record<ProviderName, string> = {
  anthropic: "claude-sonnet-4-6",
  openai: "gpt-4.1",
};

export function modelInfo(model: string): ModelInfo {
  const name = model.toLowerCase();
  let best: CatalogEntry | undefined;
  for (const entry of CATALOG)
    if (name.startsWith(entry.prefix) && (!best || entry.prefix.length > best.prefix.length)) best = entry;
  if (!best) return UNKNOWN;
  const { prefix: _prefix, ...info } = best;
  return info;
}

/** Dollars for one response's usage; undefined when the price is unknown. */
export function costUsd(usage: Usage, pricing: ModelPricing | undefined): number | undefined {
  if (!pricing) return undefined;
  const perToken = (dollarsPerMillion: number) => dollarsPerMillion / 1_000_000;
  return (
    usage.inputTokens * perToken(pricing.input) +
    usage.outputTokens * perToken(pricing.output) +
    usage.cacheCreationInputTokens * perToken(pricing.cacheWrite ?? pricing.input * 1.25) +
    usage.cacheReadInputTokens * perToken(pricing.cacheRead ?? pricing.input * 0.1)
  );
}
