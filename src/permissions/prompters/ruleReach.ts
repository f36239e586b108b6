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
