// A pipeline result as an MCP tools/call result, and a tool's progress as one line of text.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ResultEvent } from "../pipeline/runToolUse.ts";
import type { Tool, ToolView } from "../tool/Tool.ts";

const PROGRESS_MESSAGE_CHARS = 200;

function viewText(view: ToolView): string {
  switch (view.kind) {
    case "text":
    case "progress":
      return view.text;
    case "command": {
      const last = view.output?.trimEnd().split("\n").pop();
      return last ? `$ ${view.command}: ${last}` : `$ ${view.command}`;
    }
    case "diff":
      return view.summary ?? `edit ${view.path}`;
    case "list":
      return view.title ?? `${view.items.length} items`;
  }
}

export function progressMessage(tool: Tool, data: unknown): string {
  let text: string;
  try {
    text = tool.renderToolProgress
      ? viewText(tool.renderToolProgress(data))
      : typeof data === "string"
        ? data
        : JSON.stringify(data);
  } catch {
    text = "working";
  }
  return text.length > PROGRESS_MESSAGE_CHARS ? `${text.slice(0, PROGRESS_MESSAGE_CHARS)}…` : text;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

const ALLOW_HINT =
  "The user can allow such calls with a permission rule in Keel's settings, or by starting `keel mcp` with " +
  "--allow '<rule>' or another --mode.)";
/** Why nobody approved, as the client's model should read it: the client cannot ask, or nobody answered. */
const NO_PROMPTER_HINT = {
  cannotAsk: `\n\n(This MCP client cannot ask the user for approval. ${ALLOW_HINT}`,
  askFailed: `\n\n(Asking the user for approval through this MCP client failed. ${ALLOW_HINT}`,
  unanswered: `\n\n(Nobody answered the approval question through this MCP client. ${ALLOW_HINT}`,
};

function noPrompterHint(reason: string, clientCanAsk: boolean): string {
  if (!clientCanAsk) return NO_PROMPTER_HINT.cannotAsk;
  return reason.startsWith("nobody answered") ? NO_PROMPTER_HINT.unanswered : NO_PROMPTER_HINT.askFailed;
}

export function toCallToolResult(
  event: ResultEvent,
  hasOutputSchema: boolean,
  clientCanAsk = false,
): CallToolResult {
  const content: CallToolResult["content"] = [];
  const blocks = event.block.content;
  if (typeof blocks === "string") content.push({ type: "text", text: blocks });
  else
    for (const block of blocks)
      content.push(
        block.type === "text"
          ? { type: "text", text: block.text }
          : { type: "image", data: block.source.data, mimeType: block.source.media_type },
      );
  for (const extra of event.additionalContext) content.push({ type: "text", text: extra });
  if (event.isError) {
    if (event.decision?.reason.type === "noPrompter" && content[0]?.type === "text")
      content[0] = {
        type: "text",
        text: content[0].text + noPrompterHint(event.decision.reason.reason, clientCanAsk),
      };
    return { content, isError: true };
  }
  const structured =
    event.structuredContent ?? (hasOutputSchema && isPlainObject(event.output) ? event.output : undefined);
  return { content, ...(structured ? { structuredContent: structured } : {}) };
}
