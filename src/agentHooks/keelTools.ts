// The Keel tools another agent's calls are judged as, loaded one at a time: a hook process decides one
// call, so it imports that tool's module (and the rule matchers it registers) and nothing else.
import { parseMcpToolName } from "../mcp/names.ts";
import type { Tool } from "../tool/Tool.ts";

type Loader = () => Promise<Tool>;

/** Keel's built-in tools that judge calls of other agents, by Keel's name. */
const LOADERS: Record<string, Loader> = {
  Bash: async () => (await import("../tools/bash/BashTool.ts")).BashTool as Tool,
  Read: async () => (await import("../tools/read/ReadTool.ts")).ReadTool as Tool,
  Write: async () => (await import("../tools/write/WriteTool.ts")).WriteTool as Tool,
  Edit: async () => (await import("../tools/edit/EditTool.ts")).EditTool as Tool,
  MultiEdit: async () => (await import("../tools/multi-edit/MultiEditTool.ts")).MultiEditTool as Tool,
  NotebookEdit: async () =>
    (await import("../tools/notebook-edit/NotebookEditTool.ts")).NotebookEditTool as Tool,
  Glob: async () => (await import("../tools/glob/GlobTool.ts")).GlobTool as Tool,
  Grep: async () => (await import("../tools/grep/GrepTool.ts")).GrepTool as Tool,
  LS: async () => (await import("../tools/ls/LSTool.ts")).LSTool as Tool,
  WebFetch: async () => (await import("../tools/web-fetch/WebFetchTool.ts")).WebFetchTool as Tool,
  WebSearch: async () => (await import("../tools/web-search/WebSearchTool.ts")).WebSearchTool as Tool,
};

export function isJudgedTool(name: string): boolean {
  return Object.hasOwn(LOADERS, name) || parseMcpToolName(name)?.tool !== undefined;
}

/** Keel's tool for this name, or undefined when Keel has no opinion on such calls. */
export async function loadJudgedTool(name: string): Promise<Tool | undefined> {
  const loader = Object.hasOwn(LOADERS, name) ? LOADERS[name] : undefined;
  if (loader) return loader();
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
  void import("node:v8")
    .then((v8) => v8.setFlagsFromString(WASM_TIERING_BUDGET))
    .catch(() => {})
    .then(() => import("../shell/parse.ts"))
    .then((parse) => parse.initBashParser())
    .catch(() => {});
}

/**
 * A process that decides one call should not optimise the grammar's hot wasm code: V8 would compile it
 * in the background and the exit would wait for that (~0.5 s here).
 */
const WASM_TIERING_BUDGET = "--wasm-tiering-budget=1000000000";
