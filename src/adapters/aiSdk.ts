// Keel tools as Vercel AI SDK tools: `generateText({ tools: toAISDKTools(keelTools, { context }) })`.
// Each tool's execute runs Keel's whole pipeline (schema, validation, permission rules and modes, hooks,
// the prompter, audit, result budget), so a deny rule stops a call made through the AI SDK too.
import { type Tool as AISDKTool, jsonSchema, tool } from "ai";
import { linkedController } from "../pipeline/callRunner.ts";
import { type ResultEvent, runToolUse } from "../pipeline/runToolUse.ts";
import type { PipelineServices } from "../pipeline/services.ts";
import type { ToolUseContext } from "../tool/context.ts";
import type { ToolErrorCode } from "../tool/errors.ts";
import { resultText, type ToolResultContent } from "../tool/messages.ts";
import { assembleToolPool } from "../tool/registry.ts";
import { toolInputJSONSchema } from "../tool/schema.ts";
import type { Tool } from "../tool/Tool.ts";

/** What execute returns: the model-facing result, and who decided. */
export interface KeelToolOutput {
  isError: boolean;
  content: ToolResultContent;
  errorCode?: ToolErrorCode;
  decidedBy?: string;
}

export interface AISDKToolsOptions {
  /** The session: policy, working directories, app state. Its tools are replaced by the ones given. */
  context: ToolUseContext;
  services?: PipelineServices;
  /** Called with each completed call (logs, UIs). */
  onResult?: (result: ResultEvent) => void;
}

function toOutput(result: ResultEvent): KeelToolOutput {
  return {
    isError: result.isError,
    content: result.additionalContext.length
      ? `${resultText(result.block.content)}\n\n${result.additionalContext.join("\n")}`
      : result.block.content,
    ...(result.errorCode ? { errorCode: result.errorCode } : {}),
    ...(result.decision ? { decidedBy: result.decision.decidedBy } : {}),
  };
}

async function runOne(
  keelTool: Tool,
  input: unknown,
  toolCallId: string,
  signal: AbortSignal | undefined,
  options: AISDKToolsOptions,
  tools: Tool[],
): Promise<KeelToolOutput> {
  const signals = [options.context.abortController.signal, ...(signal ? [signal] : [])];
  const { controller, dispose } = linkedController(...signals);
  const context: ToolUseContext = {
    ...options.context,
    abortController: controller,
    options: { ...options.context.options, tools },
  };
  try {
    let result: ResultEvent | undefined;
    for await (const event of runToolUse(
      { type: "tool_use", id: toolCallId, name: keelTool.name, input },
      context,
      options.services ?? {},
    ))
      if (event.type === "result") result = event;
    if (!result)
      return { isError: true, content: `${keelTool.name} ended without a result.`, errorCode: "tool_failed" };
    options.onResult?.(result);
    return toOutput(result);
  } finally {
    dispose();
  }
}

/**
 * The tools the session's policy lets the model see (blanket-denied tools are left out), as AI SDK
 * tools keyed by name. Inputs are validated by Keel, not by the AI SDK, so errors read the same everywhere.
 */
export async function toAISDKTools(
  tools: readonly Tool[],
  options: AISDKToolsOptions,
): Promise<Record<string, AISDKTool>> {
  const policy = options.context.getAppState().toolPermissionContext;
  const pool = assembleToolPool(tools, [], policy);
  const entries = await Promise.all(
    pool.map(
      async (keelTool): Promise<[string, AISDKTool]> => [
        keelTool.name,
        tool<unknown, KeelToolOutput>({
          description: await keelTool.prompt({ tools: pool }),
          inputSchema: jsonSchema(toolInputJSONSchema(keelTool) as Parameters<typeof jsonSchema>[0]),
          execute: (input, { toolCallId, abortSignal }) =>
            runOne(keelTool, input, toolCallId, abortSignal, options, pool),
          toModelOutput: ({ output }) =>
            output.isError
              ? { type: "error-text", value: resultText(output.content) }
              : typeof output.content === "string"
                ? { type: "text", value: output.content }
                : {
                    type: "content",
                    value: output.content.map((part) =>
                      part.type === "text"
                        ? { type: "text" as const, text: part.text }
                        : {
                            type: "image-data" as const,
                            data: part.source.data,
                            mediaType: part.source.media_type,
                          },
                    ),
                  },
        }) as AISDKTool,
      ],
    ),
  );
  return Object.fromEntries(entries);
}
