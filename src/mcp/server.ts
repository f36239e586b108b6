// Keel's tools as an MCP server. Every tools/call goes through the governed pipeline (rules, hooks,
// audit, result budget); an `ask` becomes an elicitation when the client can answer one; progress and
// cancellation travel both ways. Built on the SDK's low-level Server because Keel already has JSON
// Schemas and its own validation: McpServer would convert and validate a second time.

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  type CallToolRequest,
  ErrorCode,
  ListToolsRequestSchema,
  type Tool as McpToolDef,
  type RequestId,
  RootsListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import type { ResultEvent } from "../pipeline/runToolUse.ts";
import { runToolUse } from "../pipeline/runToolUse.ts";
import type { PipelineServices } from "../pipeline/services.ts";
import type { ToolUseContext } from "../tool/context.ts";
import { childContext } from "../tool/createContext.ts";
import { clipForEcho, errorMessage } from "../tool/errors.ts";
import { findToolByName } from "../tool/registry.ts";
import type { Tool } from "../tool/Tool.ts";
import { keelVersion } from "../version.ts";
import { progressMessage, toCallToolResult } from "./callResult.ts";
import { deferredAuditSink } from "./deferredAudit.ts";
import { clientSupportsElicitation, elicitationPrompter } from "./elicitation.ts";
import { createReadWriteGate } from "./gate.ts";
import { ClientRoots, type RootsTiming } from "./roots.ts";
import { mcpOutputSchema, toMcpToolDefinition } from "./toolListing.ts";

export { toCallToolResult } from "./callResult.ts";

const LooseCallToolRequestSchema = z.object({
  method: z.literal("tools/call"),
  params: z.looseObject({}).optional(),
});

/** How Keel names itself to MCP clients. */
export function keelServerInfo(): { name: string; version: string } {
  return { name: "keel", version: keelVersion() };
}

export interface KeelMcpServerOptions {
  /** The tools offered, already filtered (--tools, --exclude-tools, blanket deny rules). */
  tools: readonly Tool[];
  /** This MCP session's context: its policy, app state and read-file cache. */
  context: ToolUseContext;
  services: PipelineServices;
  /** Stderr lines for the person running the server. */
  log?: (line: string) => void;
  /** When the client's roots are asked for (default: on the first request, which works on every transport). */
  roots?: RootsTiming;
  /** A call the client cancelled: the transport may close what it holds for it (its SSE stream). */
  onCallCancelled?: (requestId: RequestId) => void;
}

/** A JSON-RPC error; plain Error so the message is not prefixed twice ("MCP error -32602: MCP error..."). */
function protocolError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * Tool listings by tool set, permission mode and whether the client can ask: every session of a server
 * shares the same tools, so its listing is built once (not once per session, ~20 KB each).
 */
const listings = new WeakMap<readonly Tool[], Map<string, Promise<McpToolDef[]>>>();

function listingFor(all: readonly Tool[], offered: readonly Tool[], mode: string, clientCanAsk: boolean) {
  let byKey = listings.get(all);
  if (!byKey) {
    byKey = new Map();
    listings.set(all, byKey);
  }
  const key = `${mode}|${clientCanAsk}`;
  let listing = byKey.get(key);
  if (!listing) {
    listing = Promise.all(offered.map((tool) => toMcpToolDefinition(tool, offered, mode)));
    byKey.set(key, listing);
  }
  return listing;
}

/** Tools only a person can answer (AskUserQuestion) are offered only to clients that can ask one. */
function toolsForClient(tools: readonly Tool[], clientCanAsk: boolean): Tool[] {
  if (clientCanAsk) return [...tools];
  return tools.filter((tool) => tool.requiresUserInteraction?.() !== true);
}

/** One MCP session's server: connect it to a transport (stdio, or one HTTP session). */
export function createKeelMcpServer(options: KeelMcpServerOptions): Server {
  const { context } = options;
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
  const outputSchemas = new Map(
    options.tools.map((tool) => [tool.name, mcpOutputSchema(tool) !== undefined]),
  );
  let offered: { tools: Tool[]; listing: Promise<McpToolDef[]> } | undefined;
  let callCounter = 0;
  const roots = new ClientRoots({ server, context, timing: options.roots ?? "onRequest", log });
  server.oninitialized = () => roots.onInitialized();
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => roots.onListChanged());

  // The client's capabilities are known once it initialized, before its first tools/list.
  const offeredTools = () => {
    offered ??= (() => {
      const clientCanAsk = clientSupportsElicitation(server);
      const tools = toolsForClient(options.tools, clientCanAsk);
      const mode = context.getAppState().toolPermissionContext.mode;
      return { tools, listing: listingFor(options.tools, tools, mode, clientCanAsk) };
    })();
    return offered;
  };

  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
    // Listing does not need the roots, but its stream can carry the question so the first call need not wait.
    void roots.beforeRequest(extra.requestId);
    return { tools: await offeredTools().listing };
  });

  // A loose schema, so the SDK's own tools/call check answers a malformed call with InvalidParams (its
  // strict schema would throw before that check and come out as an internal error).
  server.setRequestHandler(LooseCallToolRequestSchema, async (looseRequest, extra) => {
    const request = looseRequest as unknown as CallToolRequest;
    const name = request.params.name;
    const { tools } = offeredTools();
    const tool = findToolByName(tools, name);
    if (!tool) {
      const names = tools.map((t) => t.name).join(", ") || "(none)";
      throw protocolError(
        ErrorCode.InvalidParams,
        `Unknown tool "${clipForEcho(String(name), 200)}". Available tools: ${names}.`,
      );
    }
    await roots.beforeRequest(extra.requestId);
    const { context: callContext, dispose } = childContext(context);
    const onCancel = () => {
      callContext.abortController.abort(new Error("Cancelled by the MCP client."));
      options.onCallCancelled?.(extra.requestId);
    };
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

  server.onerror = (error) => {
    // The SDK cancels a request that timed out even when its stream is gone (the client left): nothing to report.
    if (/^Failed to send cancellation/.test(errorMessage(error))) return;
    log(`protocol error: ${errorMessage(error)}`);
  };
  return server;
}
