// Keys Keel reads must hold the right type; keys it does not read are kept as they are.
import { describe, expect, it } from "vitest";
import { parseSettingsText, SettingsError } from "./readSettingsFile.ts";

const problemsOf = (settings: unknown): string[] => {
  try {
    parseSettingsText(JSON.stringify(settings), "f");
    return [];
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    return error.problems.map((problem) => `${problem.path}: ${problem.message}`);
  }
};

describe("the settings schema", () => {
  it.each([
    [{ model: "opus", provider: "openai", baseUrl: "http://127.0.0.1:1/v1", classifierModel: "haiku" }],
    [{ contextWindow: 200_000 }],
    [{ theme: 5, statusLine: "anything", permissions: { disableAutoMode: 1 } }],
  ])("takes %j", (settings) => {
    expect(problemsOf(settings)).toEqual([]);
  });

  it.each([
    [{ model: 5 }, "model"],
    [{ provider: ["openai"] }, "provider"],
    [{ baseUrl: true }, "baseUrl"],
    [{ classifierModel: {} }, "classifierModel"],
    [{ contextWindow: "200k" }, "contextWindow"],
    [{ contextWindow: 0 }, "contextWindow"],
    [{ contextWindow: 1.5 }, "contextWindow"],
  ])("refuses %j, naming %s", (settings, path) => {
    const problems = problemsOf(settings);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${path}: `));
  });
});
