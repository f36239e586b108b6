// Prices come only from a model's own published id (or a dated snapshot of it); every other name has
// none, however close it looks. Dollars are kept to a nano-dollar, so sums print as what they are.
import { describe, expect, it } from "vitest";
import { costUsd, modelInfo, roundUsd } from "./models.ts";
import { ZERO_USAGE } from "./provider.ts";

describe("model prices", () => {
  it.each([
    ["claude-sonnet-4-6", 3],
    ["claude-sonnet-4-5-20250929", 3],
    ["claude-opus-4-20250514", 15],
    ["claude-opus-4-1", 15],
    ["claude-opus-4-5", 5],
    ["claude-3-7-sonnet-latest", 3],
    ["claude-haiku-4-5", 1],
    ["gpt-4.1", 2],
    ["gpt-4.1-2025-04-14", 2],
    ["gpt-4.1-mini", 0.4],
    ["gpt-4o-mini-2024-07-18", 0.15],
    ["o3", 2],
  ])("%s has its published price ($%s per million input tokens)", (model, input) => {
    expect(modelInfo(model).pricing?.input).toBe(input);
  });

  it.each([
    "llama3:8b",
    "qwen2.5-coder:7b",
    "gpt-oss:20b",
    "gpt-4o-local",
    "gpt-4.1-my-finetune",
    "o3-ish",
    "claude-test",
    "claude-sonnet-4-7",
    "claude-opus-4-1-custom",
  ])("%s has no price: no estimate from another model", (model) => {
    expect(modelInfo(model).pricing).toBeUndefined();
    expect(costUsd({ ...ZERO_USAGE, inputTokens: 1000, outputTokens: 1000 }, modelInfo(model).pricing)).toBe(
      undefined,
    );
  });

  it("an unpriced model still gets its family's context window", () => {
    expect(modelInfo("claude-sonnet-4-7").contextWindow).toBe(200_000);
    expect(modelInfo("gpt-4.1-my-finetune").contextWindow).toBe(1_047_576);
    expect(modelInfo("llama3:8b").contextWindow).toBe(32_000);
  });

  it("sums are kept to a nano-dollar: 100 in + 4 out on Haiku 4.5 is $0.00012, not 0.00011999999999999999", () => {
    const usage = { ...ZERO_USAGE, inputTokens: 100, outputTokens: 4 };
    expect(100 * (1 / 1e6) + 4 * (5 / 1e6)).toBe(0.00011999999999999999);
    expect(String(costUsd(usage, modelInfo("claude-haiku-4-5").pricing))).toBe("0.00012");
    expect(String(roundUsd(0.1 + 0.2))).toBe("0.3");
  });
});
