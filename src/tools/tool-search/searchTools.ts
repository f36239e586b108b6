// Finding deferred tools: `select:A,B` by exact name, or keywords scored against each tool's name
// parts, search hint and prompt. `+word` makes a word required.
import type { Tool } from "../../tool/Tool.ts";

export interface ToolSearchMatch {
  tool: Tool;
  score: number;
}

/** "mcp__github__create_issue" -> ["mcp", "github", "create", "issue"]; "WebFetch" -> ["web", "fetch"]. */
export function nameParts(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[\s_\-.:]+/)
    .map((part) => part.toLowerCase())
    .filter((part) => part !== "");
}

export function parseSelect(query: string): string[] | undefined {
  const match = /^\s*select:(.*)$/i.exec(query);
  if (!match) return undefined;
  return match[1]!
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
}

export function selectTools(
  tools: readonly Tool[],
  names: readonly string[],
): { found: Tool[]; missing: string[] } {
  const found: Tool[] = [];
  const missing: string[] = [];
  for (const name of names) {
    const tool =
      tools.find((candidate) => candidate.name === name) ??
      tools.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
    if (tool && !found.includes(tool)) found.push(tool);
    else if (!tool) missing.push(name);
  }
  return { found, missing };
}

interface Searchable {
  tool: Tool;
  name: string;
  parts: string[];
  hint: string;
  prompt: string;
}

function wordIn(text: string, word: string): boolean {
  return new RegExp(`\\b${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "i").test(text);
}

function scoreTool(entry: Searchable, term: string): number {
  let score = 0;
  if (entry.name === term) score += 20;
  if (entry.parts.includes(term)) score += 10;
  else if (entry.name.includes(term)) score += 5;
  if (wordIn(entry.hint, term)) score += 4;
  if (wordIn(entry.prompt, term)) score += 2;
  return score;
}

export async function keywordSearch(
  tools: readonly Tool[],
  query: string,
  limit: number,
): Promise<ToolSearchMatch[]> {
  const terms = query
    .toLowerCase()
    .split(/\s+/)
    .filter((term) => term !== "" && term !== "+");
  const required = terms.filter((term) => term.startsWith("+")).map((term) => term.slice(1));
  const optional = terms.filter((term) => !term.startsWith("+"));
  const entries: Searchable[] = await Promise.all(
    tools.map(async (tool) => ({
      tool,
      name: tool.name.toLowerCase(),
      parts: nameParts(tool.name),
      hint: tool.searchHint ?? "",
      prompt: await Promise.resolve(tool.prompt({ tools })).catch(() => ""),
    })),
  );
  const matches: ToolSearchMatch[] = [];
  for (const entry of entries) {
    const requiredScores = required.map((term) => scoreTool(entry, term));
    if (requiredScores.some((score) => score === 0)) continue;
    const score =
      requiredScores.reduce((sum, value) => sum + value, 0) +
      optional.reduce((sum, term) => sum + scoreTool(entry, term), 0);
    if (score > 0) matches.push({ tool: entry.tool, score });
  }
  matches.sort((a, b) => b.score - a.score || a.tool.name.localeCompare(b.tool.name));
  return matches.slice(0, limit);
}
