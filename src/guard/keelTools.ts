// The Keel tools another agent's calls are judged as, loaded one at a time: a hook process decides one
// call, so it imports that tool's module (its rule matcher is a member of the tool) and nothing else.
import { parseMcpToolName } from "../mcp/names.ts";
import type { Tool } from "../tool/Tool.ts";
import { builtinToolNames, catalogEntry } from "../tools/catalog.ts";

/** Keel's built-in tools that judge calls of other agents, by Keel's name (their metas say so). */
export const JUDGED_TOOLS: readonly string[] = builtinToolNames((meta) => meta.judgesAgentCalls === true);

export function isJudgedTool(name: string): boolean {
  return JUDGED_TOOLS.includes(name) || parseMcpToolName(name)?.tool !== undefined;
}

/** Keel's tool for this name, or undefined when Keel has no opinion on such calls. */
export async function loadJudgedTool(name: string): Promise<Tool | undefined> {
  if (JUDGED_TOOLS.includes(name)) return catalogEntry(name)?.load();
  const mcp = parseMcpToolName(name);
  if (mcp?.tool === undefined) return undefined;
  const { mcpToolByName } = await import("./mcpToolByName.ts");
  return mcpToolByName(name, mcp.server, mcp.tool);
}

/**
 * Starts loading the Bash grammar (wasm, compiled on background threads) while the rest of the
 * decision's modules load; the Bash tool's own check then finds it ready or nearly so.
 */
export function warmUpFor(tools: readonly string[]): void {
  if (!tools.includes("Bash")) return;
  void import("../shell/analyze/grammar/parse.ts").then((parse) => parse.initBashParser()).catch(() => {});
}
