import { describe, expect, it } from "vitest";
import * as z from "zod";
import { createToolUseContext } from "../../tool/createContext.ts";
import { buildTool } from "../../tool/Tool.ts";
import { decidePermission } from "../engine.ts";
import { webFetchRuleMatcher } from "./webFetch.ts";

const webFetch = buildTool<{ url: string; prompt?: string }>({
  name: "WebFetch",
  inputSchema: z.object({ url: z.string(), prompt: z.string().optional() }),
  maxResultSizeChars: 100_000,
  isReadOnly: true,
  call: async () => ({ data: "" }),
  description: () => "fetch",
  prompt: () => "fetch",
  ruleMatcher: webFetchRuleMatcher,
});

async function decide(rule: string, behavior: "allow" | "deny", url: string) {
  const context = createToolUseContext({ tools: [webFetch], [behavior]: [rule] });
  return (await decidePermission(webFetch, { url }, context)).behavior;
}

// The rule's table: each URL must (or must not) be covered by the rule.
const MUST_MATCH: Array<[string, string]> = [
  ["domain:example.com", "https://example.com/"],
  ["domain:example.com", "https://EXAMPLE.com./page?q=1"],
  ["domain:example.com", "https://docs.example.com/a"],
  ["domain:example.com", "https://a.b.example.com:8443/"],
  ["domain:example.com", "http://user:pw@example.com/"],
  ["domain:Example.COM", "https://example.com/"],
  ["domain:*.example.com", "https://api.example.com/"],
  ["domain:example.com:443", "https://example.com/"],
  ["domain:127.0.0.1", "http://0x7f.0.0.1/"],
  ["domain:bücher.de", "https://xn--bcher-kva.de/"],
  ["domain:[::1]", "http://[::1]:8080/"],
];

const MUST_NOT_MATCH: Array<[string, string]> = [
  ["domain:example.com", "https://badexample.com/"],
  ["domain:example.com", "https://example.com.evil.io/"],
  ["domain:example.com", "https://example.co/"],
  ["domain:example.com", "https://evil.io/?next=example.com"],
  ["domain:example.com", "https://example.com@evil.io/"],
  ["domain:example.com", "https://evil.io/example.com"],
  ["domain:docs.example.com", "https://example.com/"],
  ["domain:docs.example.com", "https://api.example.com/"],
  ["domain:*.example.com", "https://example.com/"],
  ["domain:github.com", "https://raw.githubusercontent.com/x"],
];

describe("WebFetch(domain:host)", () => {
  it.each(MUST_MATCH)("%s allows %s", async (rule, url) => {
    expect(await decide(`WebFetch(${rule})`, "allow", url)).toBe("allow");
    expect(await decide(`WebFetch(${rule})`, "deny", url)).toBe("deny");
  });

  it.each(MUST_NOT_MATCH)("%s does not cover %s", async (rule, url) => {
    expect(await decide(`WebFetch(${rule})`, "allow", url)).toBe("ask");
    expect(await decide(`WebFetch(${rule})`, "deny", url)).toBe("ask");
  });

  it.each([
    ["a specifier without domain:", "WebFetch(example.com)"],
    ["a wildcard in the middle", "WebFetch(domain:ex*ample.com)"],
  ])("fails closed on %s: deny applies, allow does not", async (_name, rule) => {
    expect(await decide(rule, "allow", "https://example.com/")).toBe("ask");
    expect(await decide(rule, "deny", "https://example.com/")).toBe("deny");
  });

  it.each(["not a url", "file:///etc/passwd", ""])("fails closed on the unreadable URL %j", async (url) => {
    expect(await decide("WebFetch(domain:example.com)", "allow", url)).toBe("ask");
    expect(await decide("WebFetch(domain:example.com)", "deny", url)).toBe("deny");
  });

  it("explains malformed specifiers so settings loading can warn", () => {
    const matcher = webFetchRuleMatcher;
    expect(matcher?.validate?.("domain:example.com")).toBeUndefined();
    expect(matcher?.validate?.("example.com")).toMatch(/domain:<host>/);
    expect(matcher?.validate?.("domain:a b")).toMatch(/not a host name/);
  });
});
