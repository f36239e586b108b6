import { describe, expect, it } from "vitest";
import { formatRuleValue, parseRuleValue, RuleParseError } from "./rules.ts";

describe("permission rule parsing and formatting", () => {
  const roundTrips: Array<[string, { toolName: string; ruleContent?: string }]> = [
    ["Bash", { toolName: "Bash" }],
    ["Bash(npm test:*)", { toolName: "Bash", ruleContent: "npm test:*" }],
    ["Read(//etc/**)", { toolName: "Read", ruleContent: "//etc/**" }],
    ["Bash(echo \\(hi\\))", { toolName: "Bash", ruleContent: "echo (hi)" }],
    ["Bash(printf a\\\\b)", { toolName: "Bash", ruleContent: "printf a\\b" }],
    ["mcp__github", { toolName: "mcp__github" }],
    ["mcp__github__create_issue", { toolName: "mcp__github__create_issue" }],
    ["WebFetch(domain:example.com)", { toolName: "WebFetch", ruleContent: "domain:example.com" }],
    ["*", { toolName: "*" }],
  ];
  it.each(roundTrips)("%s parses and formats back", (text, value) => {
    expect(parseRuleValue(text)).toEqual(value);
    expect(formatRuleValue(parseRuleValue(text))).toBe(text);
    expect(parseRuleValue(formatRuleValue(value))).toEqual(value);
  });

  it.each(["Bash()", "Bash(*)"])("%s means the whole tool", (text) => {
    expect(parseRuleValue(text)).toEqual({ toolName: "Bash" });
  });

  it.each([
    ["", /empty/],
    ["Bash(unclosed", /end with '\)'/],
    ["Bash(a(b)", /unescaped '\('/],
    ["Bash)", /without '\('/],
    ["Ba sh", /tool name/],
    ["(x)", /not a tool name/],
    ["Bash(x\\)", /end with/],
  ])("rejects %j", (text, reason) => {
    expect(() => parseRuleValue(text)).toThrow(RuleParseError);
    expect(() => parseRuleValue(text)).toThrow(reason);
  });

  it("formats specifiers with parentheses by escaping them", () => {
    expect(formatRuleValue({ toolName: "Bash", ruleContent: "f() { x; }" })).toBe("Bash(f\\(\\) { x; })");
  });
});
