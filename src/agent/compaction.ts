// Context compaction: when the conversation nears the model's window, the older turns are summarized by
// the model and replaced by that summary; the recent turns stay verbatim, and the open tasks (the last
// todo list the model wrote) are carried over word for word.
import type { ContentBlock, Message } from "../tool/messages.ts";
import { type AgentEvent, notices } from "./events.ts";
import { errorMessageForUser } from "./format.ts";
import type { LoopHooks } from "./loopHooks.ts";
import type { ModelInfo } from "./models.ts";
import { completeMessage, type ModelProvider, responseText } from "./provider.ts";

export interface CompactionOptions {
  /** Compact when the context would pass this share of the window. */
  thresholdRatio: number;
  /** Keep about this share of the window of recent messages verbatim. */
  keepRecentRatio: number;
}

export const DEFAULT_COMPACTION: CompactionOptions = { thresholdRatio: 0.8, keepRecentRatio: 0.25 };

export const SUMMARY_PREFIX =
  "This session continues an earlier conversation that was compacted. Summary of the earlier part:";

const SUMMARY_SYSTEM = [
  "You summarize the earlier part of a coding agent's conversation so the agent can continue without it.",
  "Write a dense summary with these sections: the user's requests and intent; key decisions and facts",
  "learned; files read or changed (with paths) and why; commands run and their outcome; errors and how",
  "they were fixed; open tasks and what was being worked on at the end. Keep exact names, paths, values.",
  "Do not call tools. Answer with the summary only.",
].join(" ");

/** A rough token count for text the model has not measured yet (about 4 characters a token). */
export function estimateTokens(messages: readonly Message[]): number {
  let chars = 0;
  for (const message of messages) chars += JSON.stringify(message.content).length;
  return Math.ceil(chars / 4);
}

/**
 * Where the kept tail starts: an assistant message (so no tool_result is separated from its tool_use),
 * as far back as keeps the tail under `keepTokens`, and leaving something to summarize.
 */
export function chooseCut(messages: readonly Message[], keepTokens: number): number | undefined {
  let cut: number | undefined;
  for (let index = messages.length - 1; index > 0; index--) {
    if (messages[index]!.role !== "assistant") continue;
    if (cut !== undefined && estimateTokens(messages.slice(index)) > keepTokens) break;
    cut = index;
  }
  return cut;
}

function clip(text: string, max = 2000): string {
  return text.length > max ? `${text.slice(0, max)}… [${text.length - max} more characters]` : text;
}

function renderBlock(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return "[image]";
    case "thinking":
    case "redacted_thinking":
      return "";
    case "tool_use":
      return `[tool call ${block.name}: ${clip(typeof block.input === "string" ? block.input : JSON.stringify(block.input), 1000)}]`;
    case "tool_result": {
      const text =
        typeof block.content === "string"
          ? block.content
          : block.content.map((part) => (part.type === "text" ? part.text : "[image]")).join("\n");
      return `[tool result${block.is_error ? " (error)" : ""}: ${clip(text)}]`;
    }
  }
}

/** The conversation as plain text, so a summary request carries no tool blocks. */
export function renderConversation(messages: readonly Message[]): string {
  return messages
    .map((message) => {
      const body =
        typeof message.content === "string"
          ? message.content
          : message.content.map(renderBlock).filter(Boolean).join("\n");
      return `${message.role === "user" ? "User" : "Assistant"}: ${body}`;
    })
    .join("\n\n");
}

/** The input of the last todo-list call (TodoWrite), which holds the open tasks. */
export function lastTodoList(messages: readonly Message[]): string | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const content = messages[index]!.content;
    if (typeof content === "string") continue;
    for (let block = content.length - 1; block >= 0; block--) {
      const part = content[block]!;
      if (part.type === "tool_use" && /^todo/i.test(part.name))
        return typeof part.input === "string" ? part.input : JSON.stringify(part.input, null, 2);
    }
  }
  return undefined;
}

export interface CompactionResult {
  messages: Message[];
  summarized: number;
  kept: number;
  summary: Message;
}

export async function compactConversation(args: {
  provider: ModelProvider;
  model: string;
  messages: readonly Message[];
  keepTokens: number;
  maxTokens: number;
  instructions?: string;
  signal: AbortSignal;
}): Promise<CompactionResult | undefined> {
  const cut = chooseCut(args.messages, args.keepTokens);
  if (cut === undefined) return undefined;
  const older = args.messages.slice(0, cut);
  const kept = args.messages.slice(cut);
  const response = await completeMessage(
    args.provider,
    {
      model: args.model,
      system: [{ text: SUMMARY_SYSTEM }],
      messages: [
        {
          role: "user",
          content: `${renderConversation(older)}\n\n---\nSummarize the conversation above.${args.instructions ? ` ${args.instructions}` : ""}`,
        },
      ],
      tools: [],
      maxTokens: args.maxTokens,
    },
    args.signal,
  );
  const todos = lastTodoList(older);
  const text = [
    SUMMARY_PREFIX,
    responseText(response.content).trim(),
    ...(todos ? [`Open tasks (the last todo list, verbatim):\n${todos}`] : []),
  ].join("\n\n");
  const summary: Message = { role: "user", content: [{ type: "text", text }] };
  return { messages: [summary, ...kept], summarized: older.length, kept: kept.length, summary };
}

/** PreCompact hooks may refuse; then the older turns are summarized. Every failure is a notice, not a throw. */
export async function* compactWithHooks(args: {
  trigger: "auto" | "manual";
  instructions?: string | undefined;
  signal: AbortSignal;
  hooks: LoopHooks;
  provider: ModelProvider;
  model: string;
  info: ModelInfo;
  messages: readonly Message[];
  options: CompactionOptions;
}): AsyncGenerator<AgentEvent, CompactionResult | undefined, undefined> {
  const pre = await args.hooks.preCompact(args.trigger, args.instructions, args.signal);
  yield* notices(pre.userMessages);
  if (pre.block) {
    const text = `Compaction skipped: a PreCompact hook blocked it (${pre.block}).`;
    yield { type: "notice", level: "warning", text };
    return undefined;
  }
  try {
    const result = await compactConversation({
      provider: args.provider,
      model: args.model,
      messages: args.messages,
      keepTokens: args.info.contextWindow * args.options.keepRecentRatio,
      maxTokens: Math.min(args.info.maxOutputTokens, 8_000),
      ...(args.instructions ? { instructions: args.instructions } : {}),
      signal: args.signal,
    });
    if (!result) yield { type: "notice", level: "info", text: "Nothing to compact yet." };
    return result;
  } catch (error) {
    yield { type: "notice", level: "warning", text: `Compaction failed: ${errorMessageForUser(error)}` };
    return undefined;
  }
}

/** The tool calls whose results the model still has. */
export function toolResultIds(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (typeof message.content === "string") continue;
    for (const block of message.content) if (block.type === "tool_result") ids.add(block.tool_use_id);
  }
  return ids;
}
