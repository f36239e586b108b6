// Picks and builds a provider. The SDKs load here, on first use, so `keel` starts fast.
import type { ModelProvider, ProviderName } from "../provider.ts";

export interface ProviderConfig {
  provider: ProviderName;
  apiKey: string;
  baseURL?: string;
  timeoutMs?: number;
}

export async function createProvider(config: ProviderConfig): Promise<ModelProvider> {
  const options = {
    apiKey: config.apiKey,
    ...(config.baseURL ? { baseURL: config.baseURL } : {}),
    ...(config.timeoutMs ? { timeoutMs: config.timeoutMs } : {}),
  };
  if (config.provider === "anthropic") {
    const { AnthropicProvider } = await import("./anthropic.ts");
    return new AnthropicProvider(options);
  }
  const { OpenAIProvider } = await import("./openai.ts");
  return new OpenAIProvider(options);
}
