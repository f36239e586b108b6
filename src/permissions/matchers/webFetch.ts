// `WebFetch(domain:host)`: the URL's host equals the rule's host or is a subdomain of it, compared by
// labels, never as a string prefix (`example.com` never covers `example.com.evil.io` or `badexample.com`).
import type { RuleContentMatcher, RuleMatchArgs } from "../matchers.ts";

const PREFIX = "domain:";

/** Lower case, no trailing dot, IDN as punycode, IPv6 without brackets. Undefined when not a host. */
export function normalizeHost(host: string): string | undefined {
  const trimmed = host.trim().toLowerCase().replace(/\.$/, "");
  if (trimmed === "" || /[\s/?#@]/.test(trimmed)) return undefined;
  try {
    const parsed = new URL(
      `http://${trimmed.includes(":") && !trimmed.startsWith("[") ? `[${trimmed}]` : trimmed}/`,
    );
    return parsed.hostname.replace(/^\[|\]$/g, "");
  } catch {
    return undefined;
  }
}

export function hostOfUrl(url: unknown): string | undefined {
  if (typeof url !== "string") return undefined;
  try {
    const parsed = new URL(url);
    if (parsed.hostname === "") return undefined;
    return parsed.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");
  } catch {
    return undefined;
  }
}

/** The rule's pattern: `{host, subdomainsOnly}`, or a reason it is malformed. */
function parseDomainSpecifier(content: string): { host: string; subdomainsOnly: boolean } | string {
  if (!content.startsWith(PREFIX))
    return `WebFetch rules take "domain:<host>", e.g. WebFetch(domain:example.com)`;
  let pattern = content.slice(PREFIX.length).trim();
  const subdomainsOnly = pattern.startsWith("*.");
  if (subdomainsOnly) pattern = pattern.slice(2);
  if (pattern.includes("*")) return `"${content}": only a leading "*." wildcard is allowed`;
  if (/:\d+$/.test(pattern) && !pattern.includes("]")) pattern = pattern.replace(/:\d+$/, "");
  const host = normalizeHost(pattern);
  if (!host) return `"${content}": "${pattern}" is not a host name`;
  return { host, subdomainsOnly };
}

export function hostMatchesDomain(host: string, ruleHost: string, subdomainsOnly = false): boolean {
  if (host === ruleHost) return !subdomainsOnly;
  return host.endsWith(`.${ruleHost}`);
}

function matchWebFetchRule({ input, rule }: RuleMatchArgs): boolean {
  const spec = parseDomainSpecifier(rule.value.ruleContent ?? "");
  const url = (input as { url?: unknown } | null)?.url;
  const host = hostOfUrl(url);
  // What cannot be understood is covered by deny and ask rules, never by allow rules.
  if (typeof spec === "string" || host === undefined) return rule.behavior !== "allow";
  return hostMatchesDomain(host, spec.host, spec.subdomainsOnly);
}

export const webFetchRuleMatcher: RuleContentMatcher = {
  matches: matchWebFetchRule,
  validate: (content) => {
    const spec = parseDomainSpecifier(content);
    return typeof spec === "string" ? spec : undefined;
  },
};
