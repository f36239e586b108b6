// Which model, where, with which key: from flags, then the environment, then settings files. The
// provider is --provider (KEEL_PROVIDER, settings), else what the model's name says (claude-*, gpt-*),
// else the one API key that is set (with both, and no model named, the default model: Claude); when that
// leaves it open Keel refuses with a clear ProviderError rather than guess a protocol.
import { ProviderError } from "./errors.ts";
import { DEFAULT_MODELS, type ModelInfo, modelInfo } from "./models.ts";
import type { ProviderName } from "./provider.ts";

export interface ModelFlags {
  model?: string;
  provider?: string;
  baseUrl?: string;
  contextWindow?: number;
}

/** Agent keys read from settings files (loose keys, highest precedence first). */
export interface AgentSettings {
  model?: string;
  provider?: string;
  baseUrl?: string;
  contextWindow?: number;
  classifierModel?: string;
}

export interface ModelConfig {
  provider: ProviderName;
  model: string;
  baseURL?: string;
  apiKey: string;
  info: ModelInfo;
  /** How the provider was chosen, when the person should hear it once (both API keys set). */
  notice?: string;
}

/** The short names Claude Code settings use for `model`. */
const MODEL_ALIASES: Record<string, string> = {
  sonnet: "claude-sonnet-4-6",
  opus: "claude-opus-4-5",
  haiku: "claude-haiku-4-5",
};

/** `sonnet` -> its full model name; other names unchanged (sub-agent types name models this way too). */
export function resolveModelAlias(name: string): string {
  return MODEL_ALIASES[name.trim().toLowerCase()] ?? name.trim();
}

const OFFICIAL: Record<ProviderName, string> = {
  anthropic: "https://api.anthropic.com",
  openai: "https://api.openai.com/v1",
};

function parseProvider(value: string | undefined, where: string): ProviderName | undefined {
  if (value === undefined || value === "") return undefined;
  const normalized = value.toLowerCase();
  if (normalized === "anthropic" || normalized === "openai") return normalized;
  throw new ProviderError(
    "config",
    `Unknown provider "${value}" (${where}). Use anthropic or openai (any OpenAI-compatible server).`,
  );
}

/** The provider a model's name says (`claude-*`: Anthropic; `gpt-*`, `o1`..., `chatgpt-*`: OpenAI), if any. */
export function modelProvider(model: string | undefined): ProviderName | undefined {
  if (!model) return undefined;
  if (/^claude/i.test(model)) return "anthropic";
  if (/^(gpt-|o\d|chatgpt)/i.test(model)) return "openai";
  return undefined;
}

const LOCAL_HINT =
  "--provider openai for an OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio), --provider anthropic for the Anthropic Messages API";

/**
 * No --provider and no telling model name: the API key that is set decides. With both keys or none, a
 * base URL naming its service decides; with both keys and no model named at all, the default model
 * (Claude) does, said once. Otherwise Keel asks rather than guess a protocol.
 */
function providerFromSetup(
  base: string | undefined,
  env: NodeJS.ProcessEnv,
  model: string | undefined,
): { provider: ProviderName; notice?: string } {
  const anthropicKey = Boolean(env.ANTHROPIC_API_KEY);
  const openaiKey = Boolean(env.OPENAI_API_KEY);
  if (anthropicKey !== openaiKey) return { provider: anthropicKey ? "anthropic" : "openai" };
  const url = base ?? firstString(env.ANTHROPIC_BASE_URL, env.OPENAI_BASE_URL);
  if (url && /anthropic/i.test(url)) return { provider: "anthropic" };
  if (url && /openai/i.test(url)) return { provider: "openai" };
  if (!base && env.ANTHROPIC_BASE_URL && !env.OPENAI_BASE_URL) return { provider: "anthropic" };
  if (!base && env.OPENAI_BASE_URL && !env.ANTHROPIC_BASE_URL) return { provider: "openai" };
  if (anthropicKey && openaiKey && !base && model === undefined)
    return {
      provider: "anthropic",
      notice: `Both ANTHROPIC_API_KEY and OPENAI_API_KEY are set and no model is named: using the default model, ${DEFAULT_MODELS.anthropic} (Anthropic). For OpenAI pass --provider openai or --model ${DEFAULT_MODELS.openai}.`,
    };
  if (anthropicKey && openaiKey)
    throw new ProviderError(
      "config",
      `Both ANTHROPIC_API_KEY and OPENAI_API_KEY are set and ${model === undefined ? base : `the model name "${model}"`} does not say which API to use: pass --provider anthropic or --provider openai (or set KEEL_PROVIDER).`,
    );
  if (base)
    throw new ProviderError(
      "config",
      `Keel cannot tell which API ${base} speaks and no API key says so: pass ${LOCAL_HINT}.`,
    );
  throw new ProviderError(
    "config",
    `No model provider is set up: set ANTHROPIC_API_KEY or OPENAI_API_KEY; for a local server pass --base-url and ${LOCAL_HINT}.`,
  );
}

function firstString(...values: Array<unknown>): string | undefined {
  for (const value of values) if (typeof value === "string" && value.trim() !== "") return value.trim();
  return undefined;
}

/** The agent's keys from the settings sources, first source that sets each one wins. */
export function agentSettingsFrom(
  sources: ReadonlyArray<{ settings: Record<string, unknown> }>,
): AgentSettings {
  const settings: AgentSettings = {};
  for (const { settings: file } of sources) {
    settings.model ??= firstString(file.model);
    settings.provider ??= firstString(file.provider);
    settings.baseUrl ??= firstString(file.baseUrl);
    settings.classifierModel ??= firstString(file.classifierModel);
    if (settings.contextWindow === undefined && typeof file.contextWindow === "number")
      settings.contextWindow = file.contextWindow;
  }
  return settings;
}

export function resolveModelConfig(
  flags: ModelFlags,
  env: NodeJS.ProcessEnv = process.env,
  settings: AgentSettings = {},
): ModelConfig {
  const explicit =
    parseProvider(flags.provider, "--provider") ??
    parseProvider(env.KEEL_PROVIDER, "KEEL_PROVIDER") ??
    parseProvider(settings.provider, "settings provider");
  const named = firstString(flags.model, env.KEEL_MODEL, settings.model);
  const model = named ? (MODEL_ALIASES[named.toLowerCase()] ?? named) : undefined;
  const flagBase = firstString(flags.baseUrl, env.KEEL_BASE_URL, settings.baseUrl);
  const byName = explicit ?? modelProvider(model);
  const { provider, notice } =
    byName === undefined ? providerFromSetup(flagBase, env, model) : { provider: byName, notice: undefined };
  const baseURL =
    flagBase ?? firstString(provider === "anthropic" ? env.ANTHROPIC_BASE_URL : env.OPENAI_BASE_URL);
  const keyVariable = provider === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
  const key = firstString(env.KEEL_API_KEY, env[keyVariable]);
  const official = baseURL === undefined || baseURL.replace(/\/+$/, "") === OFFICIAL[provider];
  if (!key && official)
    throw new ProviderError(
      "config",
      `No API key for the ${provider === "anthropic" ? "Anthropic" : "OpenAI"} API: set ${keyVariable}, or use --base-url for a local server.`,
    );
  const chosen = model ?? DEFAULT_MODELS[provider];
  const info = modelInfo(chosen);
  const window = flags.contextWindow ?? numberFrom(env.KEEL_CONTEXT_WINDOW) ?? settings.contextWindow;
  return {
    provider,
    model: chosen,
    ...(baseURL ? { baseURL } : {}),
    // Local servers usually take no key; the SDKs still want one.
    apiKey: key ?? "not-needed",
    info: window ? { ...info, contextWindow: window } : info,
    ...(notice ? { notice } : {}),
  };
}

function numberFrom(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const number = Number(value);
  return Number.isFinite(number) && number > 0 ? number : undefined;
}
