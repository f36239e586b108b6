// Keel's tools as an MCP server. Every tools/call goes through the governed pipeline (rules, hooks,
// audit, result budget); an `ask` becomes an elicitation when the client can answer one; progress and
// cancellation travel both ways. Built on the SDK's low-level Server because Keel already has JSON
// Schemas and its own validation: McpServer would convert and validate a second time.

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  type CallToolRequest,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  type Tool as McpToolDef,
  RootsListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { ResultEvent } from "../pipeline/runToolUse.ts";
import { runToolUse } from "../pipeline/runToolUse.ts";
import type { PipelineServices } from "../pipeline/services.ts";
import type { ToolUseContext, WorkingDirectory } from "../tool/context.ts";
import { childContext } from "../tool/createContext.ts";
import { errorMessage } from "../tool/errors.ts";
import { findToolByName } from "../tool/registry.ts";
import type { Tool, ToolView } from "../tool/Tool.ts";
import { keelVersion } from "../version.ts";
import { deferredAuditSink } from "./deferredAudit.ts";
import { clientSupportsElicitation, elicitationPrompter } from "./elicitation.ts";
import { createReadWriteGate } from "./gate.ts";
import { applyRoots } from "./roots.ts";
import { mcpOutputSchema, toMcpToolDefinition } from "./toolListing.ts";

const LooseCallToolRequestSchema = z.object({
  method: z.literal("tools/call"),
  params: z.looseObject({}).optional(),
});

/** How Keel names itself to MCP clients. */
export function keelServerInfo(): { name: string; version: string } {
  return { name: "keel", version: keelVersion() };
}
const ROOTS_TIMEOUT_MS = 5_000;
const PROGRESS_MESSAGE_CHARS = 200;

export interface KeelMcpServerOptions {
  /** The tools offered, already filtered (--tools, --exclude-tools, blanket deny rules). */
  tools: readonly Tool[];
  /** This MCP session's context: its policy, app state and read-file cache. */
  context: ToolUseContext;
  services: PipelineServices;
  /** Stderr lines for the person running the server. */
  log?: (line: string) => void;
}

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

function progressMessage(tool: Tool, data: unknown): string {
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

/** A JSON-RPC error; plain Error so the message is not prefixed twice ("MCP error -32602: MCP error..."). */
function protocolError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

const ALLOW_HINT =
  "The user can allow such calls with a permission rule in Keel's settings, or by starting `keel mcp` with " +
  "--allow '<rule>' or another --mode.)";
/** Why nobody approved, as the client's model should read it: the client cannot ask, or asking failed. */
const NO_PROMPTER_HINT = {
  cannotAsk: `\n\n(This MCP client cannot ask the user for approval. ${ALLOW_HINT}`,
  askFailed: `\n\n(Asking the user for approval through this MCP client failed. ${ALLOW_HINT}`,
};

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
        text: content[0].text + (clientCanAsk ? NO_PROMPTER_HINT.askFailed : NO_PROMPTER_HINT.cannotAsk),
      };
    return { content, isError: true };
  }
  const structured =
    event.structuredContent ?? (hasOutputSchema && isPlainObject(event.output) ? event.output : undefined);
  return { content, ...(structured ? { structuredContent: structured } : {}) };
}

/** One MCP session's server: connect it to a transport (stdio, or one HTTP session). */
export function createKeelMcpServer(options: KeelMcpServerOptions): Server {
  const { tools, context } = options;
  const log = options.log ?? (() => {});
  const server = new Server(keelServerInfo(), {
    capabilities: { tools: { listChanged: false } },
    instructions:
      "Keel's coding tools. Every call is governed by the user's permission rules and hooks; a refused call " +
      "says why and what would allow it.",
  });
  const gate = createReadWriteGate();
  const { audit } = options.services;
  const services: PipelineServices = {
    ...options.services,
    gate: options.services.gate ?? gate,
    ...(audit ? { audit: deferredAuditSink(audit) } : {}),
  };
  const outputSchemas = new Map(tools.map((tool) => [tool.name, mcpOutputSchema(tool) !== undefined]));
  let listing: Promise<McpToolDef[]> | undefined;
  let rootsRefresh: Promise<void> | undefined;
  let callCounter = 0;
  const configured: WorkingDirectory[] = context
    .getAppState()
    .toolPermissionContext.additionalWorkingDirectories.map((dir) => ({
      path: dir.path,
      source: dir.source,
    }));

  const refreshRoots = () => {
    if (!server.getClientCapabilities()?.roots) return;
    rootsRefresh = server
      .listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS })
      .then(({ roots }) => {
        const dirs = applyRoots(context, configured, roots);
        log(`roots: ${dirs.length ? dirs.join(", ") : "(none usable)"}`);
      })
      .catch((error: unknown) => log(`could not read the client's roots: ${errorMessage(error)}`));
  };
  server.oninitialized = refreshRoots;
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => refreshRoots());

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    listing ??= Promise.all(
      tools.map((tool) => toMcpToolDefinition(tool, tools, context.getAppState().toolPermissionContext.mode)),
    );
    return { tools: await listing };
  });

  // A loose schema, so the SDK's own tools/call check answers a malformed call with InvalidParams (its
  // strict schema would throw before that check and come out as an internal error).
  server.setRequestHandler(LooseCallToolRequestSchema, async (looseRequest, extra) => {
    const request = looseRequest as unknown as CallToolRequest;
    const name = request.params.name;
    const tool = findToolByName(tools, name);
    if (!tool) {
      const names = tools.map((t) => t.name).join(", ") || "(none)";
      throw protocolError(ErrorCode.InvalidParams, `Unknown tool "${name}". Available tools: ${names}.`);
    }
    if (rootsRefresh) await rootsRefresh;
    const { context: callContext, dispose } = childContext(context);
    const onCancel = () => callContext.abortController.abort(new Error("Cancelled by the MCP client."));
    if (extra.signal.aborted) onCancel();
    else extra.signal.addEventListener("abort", onCancel, { once: true });
    const clientCanAsk = clientSupportsElicitation(server);
    const callServices: PipelineServices = clientCanAsk
      ? { ...services, prompter: elicitationPrompter(server, { relatedRequestId: extra.requestId }) }
      : services;
    const progressToken = extra._meta?.progressToken;
    let step = 0;
    let result: ResultEvent | undefined;
    const toolUse = {
      type: "tool_use" as const,
      id: `mcp_${++callCounter}`,
      name: tool.name,
      input: request.params.arguments ?? {},
    };
    try {
      for await (const event of runToolUse(toolUse, callContext, callServices)) {
        if (event.type === "result") result = event;
        else if (progressToken !== undefined && event.source === "tool")
          await extra
            .sendNotification({
              method: "notifications/progress",
              params: { progressToken, progress: ++step, message: progressMessage(tool, event.data) },
            })
            .catch(() => {});
      }
    } finally {
      extra.signal.removeEventListener("abort", onCancel);
      // The decision went out with the result; kept, one entry per call would pile up for the session's life.
      callContext.toolDecisions?.delete(toolUse.id);
      dispose();
    }
    // Some clients handle notifications a tick later than responses: let the last progress go out first.
    if (step > 0) await new Promise((resolve) => setImmediate(resolve));
    if (!result) throw protocolError(ErrorCode.InternalError, `${tool.name} ended without a result`);
    for (const message of result.userMessages) log(`${tool.name}: ${message}`);
    return toCallToolResult(result, outputSchemas.get(tool.name) ?? false, clientCanAsk);
  });

  server.onerror = (error) => log(`protocol error: ${errorMessage(error)}`);
  return server;
}
