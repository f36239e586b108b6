// Deferring MCP tools behind ToolSearch. When the MCP tools' definitions would take more than a share of
// the model's context (10% by default), they are offered by name only and the model loads the ones it
// needs with ToolSearch, as Claude Code does. `ENABLE_TOOL_SEARCH` (environment, or `env` in settings)
// sets it: `auto` (default), `auto:<percent>`, `true` (always defer) or `false` (never).
import { toolInputJSONSchema } from "../../tool/schema.ts";
import type { Tool } from "../../tool/Tool.ts";
import { toolSearchToolMeta } from "./meta.ts";

export type ToolSearchMode = { kind: "auto"; percent: number } | { kind: "always" } | { kind: "never" };

export const DEFAULT_DEFER_PERCENT = 10;
/** Roughly four characters a token, as for every other estimate of the context. */
const CHARS_PER_TOKEN = 4;

/** The ENABLE_TOOL_SEARCH value; anything unreadable is the default, reported in `problem`. */
export function parseToolSearchSetting(value: string | undefined): {
  mode: ToolSearchMode;
  problem?: string;
} {
  const text = (value ?? "").trim().toLowerCase();
  if (text === "" || text === "auto") return { mode: { kind: "auto", percent: DEFAULT_DEFER_PERCENT } };
  if (["true", "1", "on", "yes"].includes(text)) return { mode: { kind: "always" } };
  if (["false", "0", "off", "no"].includes(text)) return { mode: { kind: "never" } };
  const auto = /^auto:(\d{1,3})%?$/.exec(text);
  if (auto && Number(auto[1]) <= 100) return { mode: { kind: "auto", percent: Number(auto[1]) } };
  return {
    mode: { kind: "auto", percent: DEFAULT_DEFER_PERCENT },
    problem: `ENABLE_TOOL_SEARCH="${value}" is not auto, auto:<percent>, true or false; using auto (${DEFAULT_DEFER_PERCENT}%)`,
  };
}

/** What the MCP tools' definitions cost in the context: names, descriptions and input schemas. */
export async function mcpToolTokens(tools: readonly Tool[]): Promise<number> {
  let chars = 0;
  for (const tool of tools) {
    if (!tool.isMcp) continue;
    const description = await Promise.resolve(tool.prompt({ tools })).catch(() => "");
    chars += tool.name.length + description.length + JSON.stringify(toolInputJSONSchema(tool)).length;
  }
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

export interface DeferDecision {
  tools: Tool[];
  deferred: boolean;
  /** Estimated tokens of the MCP tools' definitions. */
  tokens: number;
  /** Tokens above which they are deferred (auto mode). */
  threshold?: number;
}

/** The pool with its MCP tools deferred (shouldDefer) when the mode and their size say so. */
export async function deferMcpTools(
  tools: readonly Tool[],
  options: { contextWindow: number; mode: ToolSearchMode },
): Promise<DeferDecision> {
  const tokens = await mcpToolTokens(tools);
  const hasMcp = tools.some((tool) => tool.isMcp);
  const hasToolSearch = tools.some((tool) => tool.name === toolSearchToolMeta.name);
  const { mode } = options;
  const threshold =
    mode.kind === "auto" ? Math.floor((options.contextWindow * mode.percent) / 100) : undefined;
  const defer =
    hasMcp && hasToolSearch && (mode.kind === "always" || (mode.kind === "auto" && tokens > threshold!));
  return {
    tools: defer
      ? tools.map((tool) =>
          tool.isMcp && !tool.alwaysLoad ? Object.freeze({ ...tool, shouldDefer: true }) : tool,
        )
      : [...tools],
    deferred: defer,
    tokens,
    ...(threshold === undefined ? {} : { threshold }),
  };
}
