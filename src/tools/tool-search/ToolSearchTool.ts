// ToolSearch: loads deferred tools into the pool, by `select:Name` or by keyword search. The loaded tools
// reach the pool through a contextModifier; getLoadedDeferredToolNames tells the agent loop which they are.
import { readFileSync } from "node:fs";
import * as z from "zod";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { isDeferredTool } from "../../tool/registry.ts";
import { toolInputJSONSchema } from "../../tool/schema.ts";
import { allowedByTool, buildTool, type PromptOptions, type Tool } from "../../tool/Tool.ts";
import { LOADED_TOOLS_PREFIX, listDeferredTools, withLoadedTools } from "./deferredTools.ts";
import { toolSearchToolMeta } from "./meta.ts";
import { keywordSearch, parseSelect, selectTools } from "./searchTools.ts";

export {
  type DeferredToolOptions,
  getLoadedDeferredToolNames,
  loadedToolNamesFromMessages,
} from "./deferredTools.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();
const MAX_DESCRIPTION_CHARS = 4_000;

const inputSchema = z.strictObject({
  query: z.string().trim().min(1).describe('"select:Name1,Name2" to load by name, or keywords to search'),
  max_results: z.number().int().min(1).max(25).optional().describe("At most this many tools (default 5)"),
});
export type ToolSearchInput = z.infer<typeof inputSchema>;

export interface LoadedToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ToolSearchOutput {
  query: string;
  mode: "select" | "keyword";
  loaded: LoadedToolDefinition[];
  /** `select:` names that are not deferred tools of this session. */
  missing: string[];
  totalDeferred: number;
}

function render(output: ToolSearchOutput): string {
  const lines: string[] = [];
  if (output.loaded.length > 0) {
    lines.push(`${LOADED_TOOLS_PREFIX}${output.loaded.map((tool) => tool.name).join(", ")}`);
    lines.push("They can be called now. Their definitions:");
    for (const tool of output.loaded)
      lines.push(
        "",
        `<tool name="${tool.name}">`,
        tool.description,
        `Input schema: ${JSON.stringify(tool.inputSchema)}`,
        "</tool>",
      );
  } else {
    lines.push(
      output.totalDeferred === 0
        ? "There are no deferred tools in this session: every available tool is already loaded."
        : `No deferred tool matches "${output.query}". Try other keywords, or select:<name> with a name from the list in this tool's description.`,
    );
  }
  if (output.missing.length > 0)
    lines.push("", `Not found among the deferred tools: ${output.missing.join(", ")}.`);
  return lines.join("\n");
}

async function describeTool(tool: Tool, tools: readonly Tool[]): Promise<LoadedToolDefinition> {
  const prompt = await Promise.resolve(tool.prompt({ tools })).catch(() => tool.name);
  return {
    name: tool.name,
    description:
      prompt.length > MAX_DESCRIPTION_CHARS ? `${prompt.slice(0, MAX_DESCRIPTION_CHARS)}…` : prompt,
    inputSchema: toolInputJSONSchema(tool),
  };
}

async function toolSearchPrompt(options: PromptOptions): Promise<string> {
  const deferred = options.tools.filter(isDeferredTool).map((tool) => tool.name);
  if (deferred.length === 0) return PROMPT;
  return `${PROMPT}\n\nDeferred tools in this session:\n${deferred.join("\n")}`;
}

export const ToolSearchTool: Tool<ToolSearchInput, ToolSearchOutput> = buildTool<
  ToolSearchInput,
  ToolSearchOutput
>({
  ...toolSearchToolMeta,
  searchHint: "find and load deferred tools",
  inputSchema,
  maxResultSizeChars: 50_000,
  requiresAgentLoop: true,
  prompt: toolSearchPrompt,
  description: (input) => `Find tools: ${input.query}`,
  isReadOnly: true,
  isConcurrencySafe: true,
  alwaysLoad: true,
  checkPermissions: allowedByTool(
    "only makes more tools visible; each call still goes through its own checks",
  ),

  async call(input, context) {
    const deferred = listDeferredTools(context);
    const names = parseSelect(input.query);
    const limit = input.max_results ?? 5;
    let found: Tool[];
    let missing: string[] = [];
    if (names) {
      ({ found, missing } = selectTools(deferred, names));
    } else {
      found = (await keywordSearch(deferred, input.query, limit)).map((match) => match.tool);
    }
    const loaded = await Promise.all(found.map((tool) => describeTool(tool, context.options.tools)));
    return {
      data: {
        query: input.query,
        mode: names ? "select" : "keyword",
        loaded,
        missing,
        totalDeferred: deferred.length,
      },
      ...(found.length > 0 ? { contextModifier: (next) => withLoadedTools(next, found) } : {}),
    };
  },

  mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
    return { type: "tool_result", tool_use_id: toolUseId, content: render(output) };
  },
  renderToolResult: (output) => ({
    kind: "list",
    title: output.loaded.length > 0 ? "Loaded tools" : "No tools found",
    items: output.loaded.map((tool) => tool.name),
  }),
});
