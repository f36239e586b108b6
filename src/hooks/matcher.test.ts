import { afterAll, describe, expect, it } from "vitest";
import { webFetchRuleMatcher } from "../permissions/matchers/webFetch.ts";
import type { Tool } from "../tool/Tool.ts";
import { ifRuleMatches, matcherMatches } from "./matcher.ts";
import { createHookProject, scenarioTool } from "./testing.ts";

const MUST_MATCH: Array<[string | undefined, string | undefined]> = [
  [undefined, "Bash"],
  ["", "Bash"],
  ["*", "mcp__github__create_issue"],
  ["", undefined],
  ["Bash", "Bash"],
  ["Edit|Write", "Write"],
  ["Edit|MultiEdit|Write", "MultiEdit"],
  ["mcp__github__.*", "mcp__github__create_issue"],
  ["Notebook.*", "NotebookEdit"],
  ["Web", "Web"],
  ["Bash|", "Bash"],
  ["^(Read|Grep)$", "Grep"],
  ["Fetch", "Fetch"],
  ["startup", "startup"],
];

const MUST_NOT_MATCH: Array<[string, string | undefined]> = [
  ["Bash", "BashOutput"],
  ["Bash", "bash"],
  ["Edit|Write", "MultiEdit"],
  ["Web", "WebFetch"],
  ["mcp__github__.*", "mcp__gitlab__x"],
  ["^(Read|Grep)$", "ReadFile"],
  ["Bash", undefined],
  ["(unclosed", "(unclosed"],
  ["startup", "resume"],
];

describe("hook matchers", () => {
  it.each(MUST_MATCH)("%j matches %j", (matcher, query) => {
    expect(matcherMatches(matcher, query)).toBe(true);
  });
  it.each(MUST_NOT_MATCH)("%j does not match %j", (matcher, query) => {
    expect(matcherMatches(matcher, query)).toBe(false);
  });
});

describe("the `if` field", () => {
  const webFetch: Tool = { ...(scenarioTool("WebFetch") as Tool), ruleMatcher: webFetchRuleMatcher };
  const echo = scenarioTool("Echo");
  const project = createHookProject([webFetch, echo]);
  afterAll(() => project.cleanup());
  const call = (tool = webFetch, input: Record<string, unknown> = { url: "https://api.example.com/" }) => ({
    tool,
    input,
    context: project.context,
  });

  it.each([
    [undefined, call(), true],
    ["WebFetch", call(), true],
    ["WebFetch(domain:example.com)", call(), true],
    ["WebFetch(domain:example.org)", call(), false],
    ["Echo", call(), false],
    ["Echo", call(echo, { text: "x" }), true],
    ["*", call(echo, { text: "x" }), true],
    // Cannot be understood: the hook runs (a skipped guard is the worse mistake).
    ["WebFetch(", call(), true],
    ["WebFetch(nodomain)", call(), true],
    ["Echo(anything)", call(echo, { text: "x" }), true],
  ] as const)("%j for the call -> %s", async (rule, args, expected) => {
    expect(await ifRuleMatches(rule, args)).toBe(expected);
  });
});
