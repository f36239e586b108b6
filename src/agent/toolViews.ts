// A tool call as a person sees it, from the tool's own render views (renderToolUse, renderToolResult,
// renderToolProgress), with plain fallbacks for tools that have none. Used by `keel run --verbose`
// and the terminal UI.
import type { ResultEvent } from "../pipeline/runToolUse.ts";
import { resultText, type ToolUseBlock } from "../tool/messages.ts";
import { findToolByName } from "../tool/registry.ts";
import type { Tool, ToolView } from "../tool/Tool.ts";

function safe<T>(read: () => T | undefined): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

function parsedInput(tool: Tool, input: unknown): unknown {
  let value = input;
  if (typeof input === "string") {
    try {
      value = JSON.parse(input);
    } catch {
      return undefined;
    }
  }
  const checked = tool.inputSchema.safeParse(value);
  return checked.success ? checked.data : undefined;
}

function shortJson(value: unknown, max = 120): string {
  let text: string;
  try {
    text = typeof value === "string" ? value : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

export interface CallView {
  title: string;
  view?: ToolView;
}

/** The call's title (`Bash(npm test)`) and its use view. */
export function viewToolUse(tools: readonly Tool[], block: ToolUseBlock): CallView {
  const tool = findToolByName(tools, block.name);
  if (!tool) return { title: `${block.name}(${shortJson(block.input)})` };
  const input = parsedInput(tool, block.input);
  const name = safe(() => tool.userFacingName(input as never)) ?? tool.name;
  const view = input === undefined ? undefined : safe(() => tool.renderToolUse?.(input as never));
  const path = input === undefined ? undefined : safe(() => tool.getPath?.(input as never));
  const summary =
    view?.kind === "command"
      ? view.command
      : view?.kind === "diff"
        ? view.path
        : (path ?? shortJson(block.input, 80));
  return { title: `${name}(${summary})`, ...(view && view.kind !== "command" ? { view } : {}) };
}

/** The result view: the tool's own, or the text the model got (errors always as that text). */
export function viewToolResult(
  tools: readonly Tool[],
  block: ToolUseBlock | undefined,
  result: ResultEvent,
): ToolView {
  const tool = findToolByName(tools, result.toolName);
  if (!result.isError && tool && block && result.output !== undefined) {
    const input = parsedInput(tool, block.input);
    const view =
      input === undefined
        ? undefined
        : safe(() => tool.renderToolResult?.(result.output as never, input as never));
    if (view) return view;
  }
  return { kind: "text", text: resultText(result.block.content) };
}

export function viewToolProgress(
  tools: readonly Tool[],
  toolName: string | undefined,
  data: unknown,
): ToolView {
  const tool = toolName ? findToolByName(tools, toolName) : undefined;
  const view = tool ? safe(() => tool.renderToolProgress?.(data as never)) : undefined;
  return view ?? { kind: "progress", text: typeof data === "string" ? data : shortJson(data) };
}
