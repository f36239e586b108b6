// Importing this module registers the rule matchers that belong to no single tool folder.
import "./agent.ts";
import "./webFetch.ts";

export { agentRuleMatcher, DEFAULT_SUBAGENT_TYPE } from "./agent.ts";
export { hostMatchesDomain, hostOfUrl, normalizeHost, webFetchRuleMatcher } from "./webFetch.ts";
