// An MCP server's tool as a Keel tool: `mcp__<server>__<tool>`, its raw JSON Schema given to models as is
// and checked with ajv before the call, flags from its annotations (fail-closed when absent), and calls
// that ask unless a rule allows them.
import type { Tool as McpToolDef } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import type { PermissionResult } from "../permissions/types.ts";
import { ToolError } from "../tool/errors.ts";
import { buildTool, type JSONSchema, type Tool, type ValidationResult } from "../tool/Tool.ts";
import type { McpConnection } from "./connection.ts";
import { mcpToolName } from "./names.ts";
import { type McpToolOutput, mapMcpToolResult, mcpErrorText } from "./result.ts";
import { compileJsonSchema } from "./validateJsonSchema.ts";

/** Longer descriptions are cut: some servers ship pages of text per tool. */
const MAX_DESCRIPTION_CHARS = 2_048;
/** The pipeline's budget (50,000 characters) applies below this. */
const MAX_RESULT_CHARS = 100_000;

export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}

const anyObject = z.looseObject({});

function descriptionOf(def: McpToolDef): string {
  const text = (def.description ?? "").trim() || `Tool ${def.name} of an MCP server.`;
  return text.length > MAX_DESCRIPTION_CHARS ? `${text.slice(0, MAX_DESCRIPTION_CHARS)}… [truncated]` : text;
}

function progressText(progress: McpProgress): string {
  const amount = progress.total ? `${progress.progress}/${progress.total}` : `${progress.progress}`;
  return progress.message ? `${progress.message} (${amount})` : `progress ${amount}`;
}

/** Builds the Keel tool for one tool of a connected server. */
export function buildMcpTool(
  connection: McpConnection,
  def: McpToolDef,
): Tool<Record<string, unknown>, McpToolOutput, McpProgress> {
  const name = mcpToolName(connection.name, def.name);
  const annotations = def.annotations ?? {};
  const readOnly = annotations.readOnlyHint === true;
  // MCP's own defaults: an unannotated tool may be destructive and reaches the open world.
  const destructive = !readOnly && annotations.destructiveHint !== false;
  const openWorld = annotations.openWorldHint !== false;
  const inputJSONSchema = (def.inputSchema ?? { type: "object" }) as JSONSchema;
  const title = annotations.title ?? def.title;
  let validator: ReturnType<typeof compileJsonSchema> | undefined;

  return buildTool<Record<string, unknown>, McpToolOutput, McpProgress>({
    name,
    searchHint: title ?? def.name,
    inputSchema: anyObject,
    inputJSONSchema,
    maxResultSizeChars: MAX_RESULT_CHARS,
    isMcp: true,
    mcpInfo: { serverName: connection.ruleName, toolName: def.name },
    isReadOnly: readOnly,
    isConcurrencySafe: readOnly,
    isDestructive: destructive,
    isOpenWorld: () => openWorld,
    interruptBehavior: () => (readOnly ? "cancel" : "block"),
    description: () => descriptionOf(def),
    prompt: () => descriptionOf(def),
    userFacingName: () => `${connection.name} - ${title ?? def.name} (MCP)`,
    toAutoClassifierInput: (input) => input,
    async validateInput(input): Promise<ValidationResult> {
      validator ??= compileJsonSchema(inputJSONSchema);
      const check = await validator;
      if (check.kind === "unusable") return { result: true }; // the server checks its own input
      const problems = check.validate(input);
      if (problems === undefined) return { result: true };
      return {
        result: false,
        errorCode: "invalid_input",
        message: `${name}: the input does not match the tool's schema: ${problems}. Fix the arguments and call it again.`,
      };
    },
    async checkPermissions(input): Promise<PermissionResult<Record<string, unknown>>> {
      return {
        behavior: "passthrough",
        updatedInput: input,
        message: `${name} (a tool of MCP server "${connection.name}") needs approval`,
        suggestions: [
          { behavior: "allow", rule: name, destination: "session" },
          { behavior: "allow", rule: `mcp__${connection.ruleName}`, destination: "session" },
        ],
      };
    },
    async call(input, context, _canUseTool, parentMessage, onProgress) {
      const result = await connection.callTool(def.name, input, {
        signal: context.abortController.signal,
        onProgress: (progress) =>
          onProgress({
            toolUseId: parentMessage?.id ?? "",
            data: {
              progress: progress.progress,
              ...(progress.total === undefined ? {} : { total: progress.total }),
              ...(progress.message === undefined ? {} : { message: progress.message }),
            },
          }),
      });
      const content = Array.isArray(result.content) ? result.content : [];
      if (result.isError) throw new ToolError("mcp_tool_error", `${name} failed: ${mcpErrorText(content)}`);
      const structured = result.structuredContent;
      return {
        data: { content, ...(structured ? { structuredContent: structured } : {}) },
        ...(structured ? { structuredContent: structured } : {}),
      };
    },
    mapToolResultToToolResultBlockParam: mapMcpToolResult,
    renderToolProgress: (progress) => ({ kind: "progress", text: progressText(progress) }),
  });
}
