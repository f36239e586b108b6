// Rule matchers that belong to no single tool folder (a tool declares the one it uses).
export { agentRuleMatcher, DEFAULT_SUBAGENT_TYPE } from "./agent.ts";
export { hostMatchesDomain, hostOfUrl, normalizeHost, webFetchRuleMatcher } from "./webFetch.ts";
