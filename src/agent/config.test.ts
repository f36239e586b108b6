// Tables: which provider and model from flags, environment and settings; argument repair; how SDK
// errors are classified (built from the SDKs' own error classes).
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { agentSettingsFrom, resolveModelConfig } from "./config.ts";
import { classifyProviderError, ProviderError } from "./errors.ts";
import { parseToolArguments } from "./jsonRepair.ts";
import { costUsd, modelInfo } from "./models.ts";

describe("resolveModelConfig", () => {
  it.each([
    {
      name: "flag wins",
      flags: { provider: "openai", model: "x" },
      env: { OPENAI_API_KEY: "k" },
      provider: "openai",
      model: "x",
    },
    {
      name: "claude model means anthropic",
      flags: { model: "claude-opus-4-5" },
      env: { ANTHROPIC_API_KEY: "k" },
      provider: "anthropic",
    },
    {
      name: "gpt model means openai",
      flags: { model: "gpt-4o" },
      env: { OPENAI_API_KEY: "k" },
      provider: "openai",
    },
    {
      name: "a local server named with its protocol",
      flags: { baseUrl: "http://localhost:11434/v1", provider: "openai" },
      env: {},
      provider: "openai",
      key: "not-needed",
    },
    {
      name: "a base URL with only an Anthropic key stays Anthropic (the key decides, not the URL)",
      flags: { baseUrl: "http://127.0.0.1:8080" },
      env: { ANTHROPIC_API_KEY: "k" },
      provider: "anthropic",
    },
    {
      name: "a base URL with only an OpenAI key is OpenAI",
      flags: { baseUrl: "http://gateway.internal/anthropic-free/v1" },
      env: { OPENAI_API_KEY: "k" },
      provider: "openai",
    },
    {
      name: "both keys: a base URL naming its service decides",
      flags: { baseUrl: "https://gateway.example/anthropic" },
      env: { ANTHROPIC_API_KEY: "k", OPENAI_API_KEY: "k" },
      provider: "anthropic",
    },
    {
      name: "both keys: the model name decides",
      flags: { model: "gpt-4o" },
      env: { ANTHROPIC_API_KEY: "k", OPENAI_API_KEY: "k" },
      provider: "openai",
    },
    {
      name: "no key: OPENAI_BASE_URL alone means OpenAI",
      flags: {},
      env: { OPENAI_BASE_URL: "http://localhost:8000/v1" },
      provider: "openai",
    },
    {
      name: "env provider and model",
      flags: {},
      env: { KEEL_PROVIDER: "anthropic", KEEL_MODEL: "m1", ANTHROPIC_API_KEY: "k" },
      provider: "anthropic",
      model: "m1",
    },
    {
      name: "settings model",
      flags: {},
      env: { ANTHROPIC_API_KEY: "k" },
      settings: { model: "claude-haiku-4-5" },
      provider: "anthropic",
      model: "claude-haiku-4-5",
    },
    {
      name: "Claude Code's model aliases",
      flags: {},
      env: { ANTHROPIC_API_KEY: "k" },
      settings: { model: "haiku" },
      provider: "anthropic",
      model: "claude-haiku-4-5",
    },
    {
      name: "only an OpenAI key",
      flags: {},
      env: { OPENAI_API_KEY: "k" },
      provider: "openai",
      model: "gpt-4.1",
    },
    {
      name: "default",
      flags: {},
      env: { ANTHROPIC_API_KEY: "k" },
      provider: "anthropic",
      model: "claude-sonnet-4-6",
    },
    {
      name: "both keys and no model named: the default model, Claude, said once",
      flags: {},
      env: { ANTHROPIC_API_KEY: "a", OPENAI_API_KEY: "o" },
      provider: "anthropic",
      model: "claude-sonnet-4-6",
      key: "a",
      notice:
        /Both ANTHROPIC_API_KEY and OPENAI_API_KEY are set and no model is named: using the default model, claude-sonnet-4-6 \(Anthropic\)\. For OpenAI pass --provider openai or --model gpt-4\.1\./,
    },
    {
      name: "both keys and a configured default model: its provider, nothing to say",
      flags: {},
      env: { ANTHROPIC_API_KEY: "a", OPENAI_API_KEY: "o" },
      settings: { model: "gpt-4.1-mini" },
      provider: "openai",
      model: "gpt-4.1-mini",
      key: "o",
    },
    {
      name: "both keys and Claude Code's model alias in settings",
      flags: {},
      env: { ANTHROPIC_API_KEY: "a", OPENAI_API_KEY: "o" },
      settings: { model: "opus" },
      provider: "anthropic",
      key: "a",
    },
  ])("$name", ({ flags, env, settings, provider, model, key, notice }) => {
    const config = resolveModelConfig(flags, env, settings ?? {});
    expect(config.provider).toBe(provider);
    if (model) expect(config.model).toBe(model);
    if (key) expect(config.apiKey).toBe(key);
    if (notice) expect(config.notice).toMatch(notice);
    else expect(config.notice).toBeUndefined();
  });

  it.each([
    { flags: { provider: "gemini" }, env: {}, message: /Unknown provider "gemini"/ },
    {
      flags: { model: "llama3" },
      env: { ANTHROPIC_API_KEY: "k", OPENAI_API_KEY: "k" },
      message:
        /Both ANTHROPIC_API_KEY and OPENAI_API_KEY are set and the model name "llama3" does not say which API to use: pass --provider anthropic or --provider openai/,
    },
    {
      flags: { baseUrl: "http://localhost:11434/v1" },
      env: {},
      message:
        /cannot tell which API http:\/\/localhost:11434\/v1 speaks.*--provider openai for an OpenAI-compatible server/,
    },
    { flags: {}, env: {}, message: /No model provider is set up: set ANTHROPIC_API_KEY or OPENAI_API_KEY/ },
    { flags: { provider: "anthropic" }, env: {}, message: /set ANTHROPIC_API_KEY/ },
    { flags: { provider: "openai" }, env: {}, message: /set OPENAI_API_KEY/ },
  ])("refuses $flags with a clear message", ({ flags, env, message }) => {
    expect(() => resolveModelConfig(flags, env)).toThrow(message);
  });

  it("reads the window from the flag or KEEL_CONTEXT_WINDOW for unknown models", () => {
    const local = { baseUrl: "http://x/v1", provider: "openai" };
    expect(resolveModelConfig({ ...local, model: "llama3" }, {}).info.contextWindow).toBe(32_000);
    expect(
      resolveModelConfig({ ...local, model: "llama3" }, { KEEL_CONTEXT_WINDOW: "8192" }).info.contextWindow,
    ).toBe(8192);
    expect(resolveModelConfig({ ...local, contextWindow: 4096 }, {}).info.contextWindow).toBe(4096);
  });

  it("takes the first settings source that sets each key", () => {
    expect(
      agentSettingsFrom([{ settings: { model: "a" } }, { settings: { model: "b", provider: "openai" } }]),
    ).toEqual({
      model: "a",
      provider: "openai",
    });
  });
});

describe("tool arguments", () => {
  it.each([
    ['{"a":1}', { a: 1 }, false],
    ["", {}, false],
    ['```json\n{"a":1}\n```', { a: 1 }, true],
    ['{"a":1,}', { a: 1 }, true],
    ['"{\\"a\\":1}"', { a: 1 }, true],
  ])("parses %j", (raw, value, repaired) => {
    expect(parseToolArguments(raw)).toEqual({ ok: true, value, repaired });
  });

  it.each(['{"command": "rm -rf /tmp/x', "[1,2]", "not json", '{"a":'])(
    "never completes or invents %j",
    (raw) => {
      expect(parseToolArguments(raw)).toEqual({ ok: false, raw });
    },
  );
});

describe("classifyProviderError", () => {
  const site = { service: "Test API", baseURL: "http://h", model: "m", keyVariable: "TEST_KEY" };
  const headers = (entries: Record<string, string> = {}) => new Headers(entries);
  it.each([
    {
      error: new Anthropic.AuthenticationError(
        401,
        { error: { type: "authentication_error", message: "bad" } },
        undefined,
        headers(),
      ),
      code: "auth",
      retryable: false,
    },
    {
      error: new Anthropic.RateLimitError(429, undefined, undefined, headers({ "retry-after": "3" })),
      code: "rate_limited",
      retryable: true,
      after: 3000,
    },
    {
      error: new Anthropic.InternalServerError(
        529,
        { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
        undefined,
        headers(),
      ),
      code: "overloaded",
      retryable: true,
    },
    {
      error: new Anthropic.NotFoundError(
        404,
        { error: { type: "not_found_error", message: "model: m" } },
        undefined,
        headers(),
      ),
      code: "model_not_found",
      retryable: false,
    },
    {
      error: new Anthropic.BadRequestError(
        400,
        { error: { message: "prompt is too long: 300000 tokens" } },
        undefined,
        headers(),
      ),
      code: "context_too_long",
      retryable: false,
    },
    {
      error: new OpenAI.InternalServerError(503, undefined, undefined, headers()),
      code: "server_error",
      retryable: true,
    },
    {
      error: new OpenAI.APIConnectionError({
        cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }),
      }),
      code: "unreachable",
      retryable: false,
    },
    {
      error: new OpenAI.APIConnectionError({
        cause: Object.assign(new Error("reset"), { code: "ECONNRESET" }),
      }),
      code: "unreachable",
      retryable: true,
    },
    { error: new OpenAI.APIConnectionTimeoutError(), code: "timeout", retryable: true },
    { error: new OpenAI.APIUserAbortError(), code: "aborted", retryable: false },
  ])("$code from $error.constructor.name", ({ error, code, retryable, after }) => {
    const classified = classifyProviderError(error, site);
    expect(classified).toBeInstanceOf(ProviderError);
    expect(classified.code).toBe(code);
    expect(classified.retryable).toBe(retryable);
    if (after) expect(classified.retryAfterMs).toBe(after);
  });
});

describe("cost", () => {
  it("prices input, output and cache tokens; unknown models have no price", () => {
    const usage = {
      inputTokens: 1_000_000,
      outputTokens: 100_000,
      cacheCreationInputTokens: 100_000,
      cacheReadInputTokens: 1_000_000,
    };
    // 3 + 1.5 + 0.375 + 0.3 dollars at $3 / $15 per million, cache write 1.25x, read 0.1x.
    expect(costUsd(usage, modelInfo("claude-sonnet-4-6").pricing)).toBeCloseTo(5.175, 6);
    expect(costUsd(usage, modelInfo("llama3:8b").pricing)).toBeUndefined();
  });
});
