// A rule's reach in a person's words, for the "don't ask again for ..." choice: `npm run test`
// commands, fetches from example.com, reading files in /etc/. The rule itself is named beside it.
import { join } from "node:path";
import { parseRuleCached, RuleParseError } from "../rules.ts";

const PATH_VERBS: Record<string, string> = {
  Read: "reading files",
  Edit: "edits",
  Write: "edits",
  MultiEdit: "edits",
  NotebookEdit: "notebook edits",
};

/** A path rule's folder: `//abs/dir/**` is /abs/dir/, `/sub/**` is under the project root. */
function folderOf(specifier: string, projectRoot: string): string {
  const folder = specifier.replace(/\/?\*\*$/, "");
  if (folder.startsWith("//")) return `${folder.slice(1)}/`;
  if (folder === "" || folder === "/") return `${projectRoot}/`;
  return `${join(projectRoot, folder)}/`;
}

export function describeRuleReach(rule: string, projectRoot: string): string {
  const value = parseRuleCached(rule);
  if (value instanceof RuleParseError) return rule;
  const content = value.ruleContent;
  if (content === undefined) return value.toolName;
  if (value.toolName === "Bash") {
    return content.endsWith(":*") ? `\`${content.slice(0, -2)}\` commands` : `the command \`${content}\``;
  }
  if (value.toolName === "WebFetch" && content.startsWith("domain:"))
    return `fetches from ${content.slice("domain:".length)}`;
  const verb = PATH_VERBS[value.toolName];
  if (verb && content.endsWith("**")) return `${verb} in ${folderOf(content, projectRoot)}`;
  return rule;
}

function joinWords(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/** Several rules at once: `npm test`, `git add` and `git commit` commands. */
export function describeRulesReach(rules: readonly string[], projectRoot: string): string {
  const prefixes = rules.map((rule) => /^Bash\((.+):\*\)$/.exec(rule)?.[1]);
  if (rules.length > 1 && prefixes.every((prefix) => prefix !== undefined && !/[()]/.test(prefix)))
    return `${joinWords(prefixes.map((prefix) => `\`${prefix}\``))} commands`;
  return joinWords(rules.map((rule) => describeRuleReach(rule, projectRoot)));
}
