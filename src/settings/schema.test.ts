// Keys Keel reads must hold the right type; keys it does not read are kept as they are.
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { parseSettingsText, SettingsError } from "./readSettingsFile.ts";
import { sectionBuiltWhenMet } from "./schema.ts";

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

describe("a section built when met", () => {
  const counted = () => {
    let built = 0;
    const schema = z.looseObject({
      kept: z.string().optional(),
      section: sectionBuiltWhenMet(() => {
        built++;
        return z.record(z.string(), z.number().int());
      }),
    });
    return { schema, built: () => built };
  };

  it("is not built for a file without it, on the object's first parse or later", () => {
    const { schema, built } = counted();
    expect(schema.parse({ kept: "x" })).toEqual({ kept: "x" });
    expect(schema.parse({})).toEqual({});
    expect(built()).toBe(0);
  });

  it("is built once when met, and checks the value as the section's own schema does", () => {
    const { schema, built } = counted();
    expect(schema.parse({ section: { a: 1 } })).toEqual({ section: { a: 1 } });
    const refused = schema.safeParse({ section: { a: 1.5 } });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => issue.path)).toEqual([["section", "a"]]);
    expect(built()).toBe(1);
  });

  it.each([
    [{ hooks: { PreToolUse: "not a list" } }, "hooks"],
    [{ lspServers: { ts: { command: 5 } } }, "lspServers"],
  ])("still refuses a bad %j in settings, naming %s", (settings, path) => {
    const problems = problemsOf(settings);
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) expect(problem).toMatch(new RegExp(`^${path}\\b`));
  });
});
