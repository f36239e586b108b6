// Keel tools for code that calls a model API directly: the tool definitions in the Anthropic and OpenAI
// formats, and runModelToolCalls(), which runs a response's tool calls through Keel's pipeline
// (permissions, hooks, audit, batching) and returns the results in that API's own format.
import { runToolCalls } from "../pipeline/orchestrate.ts";
import type { ResultEvent } from "../pipeline/runToolUse.ts";
import type { PipelineServices } from "../pipeline/services.ts";
import type { ToolPermissionContext, ToolUseContext } from "../tool/context.ts";
import { resultText, type ToolResultBlock, type ToolUseBlock } from "../tool/messages.ts";
import { assembleToolPool } from "../tool/registry.ts";
import {
  type AnthropicToolDefinition,
  type OpenAIToolDefinition,
  toAnthropicToolDefinition,
  toOpenAIToolDefinition,
} from "../tool/schema.ts";
import type { Tool } from "../tool/Tool.ts";

export interface ToolDefinitionOptions {
  /** With a policy, blanket-denied and disabled tools are left out (the model never sees them). */
  permissionContext?: ToolPermissionContext;
}

function visible(tools: readonly Tool[], options: ToolDefinitionOptions): Tool[] {
  return options.permissionContext ? assembleToolPool(tools, [], options.permissionContext) : [...tools];
}

export async function toAnthropicTools(
  tools: readonly Tool[],
  options: ToolDefinitionOptions = {},
): Promise<AnthropicToolDefinition[]> {
  const shown = visible(tools, options);
  return Promise.all(shown.map((tool) => toAnthropicToolDefinition(tool, shown)));
}

export async function toOpenAITools(
  tools: readonly Tool[],
  options: ToolDefinitionOptions = {},
): Promise<OpenAIToolDefinition[]> {
  const shown = visible(tools, options);
  return Promise.all(shown.map((tool) => toOpenAIToolDefinition(tool, shown)));
}

/** An Anthropic response content block; only `tool_use` blocks are run. */
export interface AnthropicContentBlock {
  type: string;
  id?: string;
  name?: string;
  input?: unknown;
}

/** An OpenAI `message.tool_calls` entry. */
export interface OpenAIToolCall {
  id: string;
  type?: string;
  function: { name: string; arguments: string };
}

export interface OpenAIToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

export interface RunModelToolCallsOptions {
  context: ToolUseContext;
  services?: PipelineServices;
  /** Called with each result as it completes (progress UIs, logs). */
  onResult?: (result: ResultEvent) => void;
}

async function runBlocks(calls: ToolUseBlock[], options: RunModelToolCallsOptions): Promise<ResultEvent[]> {
  const results: ResultEvent[] = [];
  for await (const event of runToolCalls(calls, options.context, options.services ?? {})) {
    if (event.type !== "result") continue;
    results.push(event);
    options.onResult?.(event);
  }
  return results;
}

/** Hook and tool context the model should see beside a result. */
function withAdditionalContext(result: ResultEvent): ToolResultBlock {
  if (result.additionalContext.length === 0) return result.block;
  const extra = result.additionalContext.join("\n");
  const content = result.block.content;
  return {
    ...result.block,
    content:
      typeof content === "string" ? `${content}\n\n${extra}` : [...content, { type: "text", text: extra }],
  };
}

export function runModelToolCalls(
  api: "anthropic",
  calls: readonly AnthropicContentBlock[],
  options: RunModelToolCallsOptions,
): Promise<ToolResultBlock[]>;
export function runModelToolCalls(
  api: "openai",
  calls: readonly OpenAIToolCall[],
  options: RunModelToolCallsOptions,
): Promise<OpenAIToolMessage[]>;
/**
 * Runs a model's tool calls through Keel and answers in the API's format: Anthropic `tool_result`
 * blocks (put them in the next user message) or OpenAI `tool` messages (append them after the
 * assistant message). Results keep the calls' order; refusals come back as errors the model can read.
 */
export async function runModelToolCalls(
  api: "anthropic" | "openai",
  calls: readonly AnthropicContentBlock[] | readonly OpenAIToolCall[],
  options: RunModelToolCallsOptions,
): Promise<ToolResultBlock[] | OpenAIToolMessage[]> {
  if (api === "anthropic") {
    const blocks = (calls as readonly AnthropicContentBlock[])
      .filter((block) => block.type === "tool_use")
      .map(
        (block): ToolUseBlock => ({
          type: "tool_use",
          id: block.id ?? "",
          name: block.name ?? "",
          input: block.input,
        }),
      );
    return (await runBlocks(blocks, options)).map(withAdditionalContext);
  }
  const blocks = (calls as readonly OpenAIToolCall[]).map(
    (call): ToolUseBlock => ({
      type: "tool_use",
      id: call.id,
      name: call.function.name,
      input: call.function.arguments,
    }),
  );
  return (await runBlocks(blocks, options)).map((result) => {
    const block = withAdditionalContext(result);
    const text = resultText(block.content);
    return {
      role: "tool",
      tool_call_id: result.toolUseId,
      content: result.isError ? `Error: ${text}` : text,
    };
  });
}
