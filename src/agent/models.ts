// What Keel knows about models: context window (by family) and price (by exact published id). Unknown
// models (local ones above all) get a conservative window and no price; the window can be set explicitly.
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

interface CatalogEntry {
  /** Matched against the start of the model name, longest first: the family's window and output limit. */
  prefix: string;
  contextWindow: number;
  maxOutputTokens: number;
}

const CATALOG: CatalogEntry[] = [
  { prefix: "claude-opus-4", contextWindow: 200_000, maxOutputTokens: 32_000 },
  { prefix: "claude-sonnet-4", contextWindow: 200_000, maxOutputTokens: 64_000 },
  { prefix: "claude-3-7-sonnet", contextWindow: 200_000, maxOutputTokens: 64_000 },
  { prefix: "claude-haiku-4", contextWindow: 200_000, maxOutputTokens: 64_000 },
  { prefix: "claude-3-5-haiku", contextWindow: 200_000, maxOutputTokens: 8_192 },
  { prefix: "claude", contextWindow: 200_000, maxOutputTokens: 8_192 },
  { prefix: "gpt-5", contextWindow: 400_000, maxOutputTokens: 128_000 },
  { prefix: "gpt-4.1", contextWindow: 1_047_576, maxOutputTokens: 32_768 },
  { prefix: "gpt-4o", contextWindow: 128_000, maxOutputTokens: 16_384 },
  { prefix: "o4-mini", contextWindow: 200_000, maxOutputTokens: 100_000 },
  { prefix: "o3", contextWindow: 200_000, maxOutputTokens: 100_000 },
];

/**
 * Published prices, by exact model id: a name gets one only when it is one of these ids, alone or with a
 * snapshot date (`-20250514`, `-2025-04-14`) or `-latest`. Any other name (a local model, a fine-tune,
 * a model newer than this list) has no price: never an estimate borrowed from another model.
 */
const PRICES: Array<{ ids: readonly string[]; pricing: ModelPricing }> = [
  { ids: ["claude-opus-4-5", "claude-opus-4-6"], pricing: { input: 5, output: 25 } },
  { ids: ["claude-opus-4", "claude-opus-4-0", "claude-opus-4-1"], pricing: { input: 15, output: 75 } },
  {
    ids: [
      "claude-sonnet-4",
      "claude-sonnet-4-0",
      "claude-sonnet-4-5",
      "claude-sonnet-4-6",
      "claude-3-7-sonnet",
    ],
    pricing: { input: 3, output: 15 },
  },
  { ids: ["claude-haiku-4-5"], pricing: { input: 1, output: 5 } },
  { ids: ["claude-3-5-haiku"], pricing: { input: 0.8, output: 4 } },
  { ids: ["gpt-5"], pricing: { input: 1.25, output: 10, cacheRead: 0.125 } },
  { ids: ["gpt-5-mini"], pricing: { input: 0.25, output: 2, cacheRead: 0.025 } },
  { ids: ["gpt-5-nano"], pricing: { input: 0.05, output: 0.4, cacheRead: 0.005 } },
  { ids: ["gpt-4.1"], pricing: { input: 2, output: 8, cacheRead: 0.5 } },
  { ids: ["gpt-4.1-mini"], pricing: { input: 0.4, output: 1.6, cacheRead: 0.1 } },
  { ids: ["gpt-4.1-nano"], pricing: { input: 0.1, output: 0.4, cacheRead: 0.025 } },
  { ids: ["gpt-4o"], pricing: { input: 2.5, output: 10, cacheRead: 1.25 } },
  { ids: ["gpt-4o-mini"], pricing: { input: 0.15, output: 0.6, cacheRead: 0.075 } },
  { ids: ["o4-mini"], pricing: { input: 1.1, output: 4.4, cacheRead: 0.275 } },
  { ids: ["o3"], pricing: { input: 2, output: 8, cacheRead: 0.5 } },
];

/** A snapshot of a listed model: a date or `latest` after its id. */
const SNAPSHOT_SUFFIX = /^(?:-\d{8}|-\d{4}-\d{2}-\d{2}|-latest)?$/;

function publishedPrice(name: string): ModelPricing | undefined {
  for (const { ids, pricing } of PRICES)
    for (const id of ids)
      if (name.startsWith(id) && SNAPSHOT_SUFFIX.test(name.slice(id.length))) return pricing;
  return undefined;
}

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
  const pricing = publishedPrice(name);
  const limits = best
    ? { contextWindow: best.contextWindow, maxOutputTokens: best.maxOutputTokens }
    : { contextWindow: UNKNOWN.contextWindow, maxOutputTokens: UNKNOWN.maxOutputTokens };
  return pricing ? { ...limits, pricing } : limits;
}

/** Dollars kept to a nano-dollar: sums of float prices carry noise (0.00011999999999999999 for 0.00012). */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e9) / 1e9;
}

/** Dollars for one response's usage; undefined when the price is unknown. */
export function costUsd(usage: Usage, pricing: ModelPricing | undefined): number | undefined {
  if (!pricing) return undefined;
  const perToken = (dollarsPerMillion: number) => dollarsPerMillion / 1_000_000;
  return roundUsd(
    usage.inputTokens * perToken(pricing.input) +
      usage.outputTokens * perToken(pricing.output) +
      usage.cacheCreationInputTokens * perToken(pricing.cacheWrite ?? pricing.input * 1.25) +
      usage.cacheReadInputTokens * perToken(pricing.cacheRead ?? pricing.input * 0.1),
  );
}
