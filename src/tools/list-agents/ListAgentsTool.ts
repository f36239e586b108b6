// ListAgents: the sub-agents of this session, running and finished (finished ones resume with
// SendMessage), then the other live Keel sessions of this user on this machine, paged with a cursor.
import { readFileSync } from "node:fs";
import * as z from "zod";
import { listPeers } from "../../sessions/peerDirectory.ts";
import { ToolError } from "../../tool/errors.ts";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { allowedByTool, buildTool } from "../../tool/Tool.ts";
import { listAgents } from "../agent/runningAgents.ts";
import { listAgentsToolMeta } from "./meta.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

const DEFAULT_LIMIT = 50;

const inputSchema = z.strictObject({
  cursor: z.string().optional().describe("next_cursor of the previous page, to read the next one"),
  limit: z.number().int().min(1).max(200).optional().describe(`Entries a page (default ${DEFAULT_LIMIT})`),
});

export type ListAgentsInput = z.infer<typeof inputSchema>;

export interface AgentEntry {
  kind: "agent";
  name?: string;
  id: string;
  type: string;
  isolation: string;
  state: string;
  started: string;
  lastActivity: string;
  description: string;
}

export interface SessionEntry {
  kind: "session";
  name?: string;
  id: string;
  pid: number;
  cwd: string;
  started: string;
  /** SendMessage reaches it at `uds:<socket>` (or by name or id). */
  socket: string;
  client: string;
}

export interface ListAgentsOutput {
  entries: Array<AgentEntry | SessionEntry>;
  total: number;
  next_cursor?: string;
}

function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const match = /^o(\d{1,6})$/.exec(cursor);
  if (!match)
    throw new ToolError(
      "invalid_input",
      `"${cursor}" is not a cursor ListAgents gave; leave cursor out to start over.`,
    );
  return Number(match[1]);
}

function line(entry: AgentEntry | SessionEntry): string {
  if (entry.kind === "agent")
    return `agent ${entry.name ? `${entry.name} ` : ""}${entry.id}  ${entry.type}  ${entry.isolation}  ${entry.state}  started ${entry.started}  last activity ${entry.lastActivity}: ${entry.description}`;
  return `session ${entry.name ? `${entry.name} ` : ""}${entry.id}  ${entry.client}  pid ${entry.pid}  ${entry.cwd}  started ${entry.started}  uds:${entry.socket}`;
}

export const ListAgentsTool = buildTool<ListAgentsInput, ListAgentsOutput>({
  ...listAgentsToolMeta,
  searchHint: "list this session's sub-agents and other Keel sessions on this machine",
  inputSchema,
  maxResultSizeChars: 30_000,
  prompt: () => PROMPT,
  description: () => "List agents and sessions",
  isReadOnly: true,
  isConcurrencySafe: true,
  checkPermissions: allowedByTool("lists the session's own agents and this user's sessions"),
  async call(input, context) {
    const offset = decodeCursor(input.cursor);
    const limit = input.limit ?? DEFAULT_LIMIT;
    const agents: AgentEntry[] = listAgents(context.options.sessionId)
      .sort((a, b) => a.startedAt - b.startedAt)
      .map((agent) => ({
        kind: "agent",
        ...(agent.name ? { name: agent.name } : {}),
        id: agent.id,
        type: agent.agentType,
        isolation: agent.isolation ?? "none",
        state: agent.status,
        started: new Date(agent.startedAt).toISOString(),
        lastActivity: new Date(agent.lastActivityAt).toISOString(),
        description: agent.description,
      }));
    const sessions: SessionEntry[] = listPeers(process.env, { exclude: context.options.sessionId }).map(
      (peer) => ({
        kind: "session",
        ...(peer.name ? { name: peer.name } : {}),
        id: peer.sessionId,
        pid: peer.pid,
        cwd: peer.cwd,
        started: peer.startedAt,
        socket: peer.socket,
        client: peer.kind === "terminal" ? "keel (terminal)" : "keel run",
      }),
    );
    const all = [...agents, ...sessions];
    const entries = all.slice(offset, offset + limit);
    const next = offset + limit < all.length ? `o${offset + limit}` : undefined;
    return { data: { entries, total: all.length, ...(next ? { next_cursor: next } : {}) } };
  },
  mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
    const body =
      output.entries.length > 0
        ? output.entries.map(line).join("\n")
        : "No sub-agents and no other sessions.";
    const more = output.next_cursor ? `\n(more: ListAgents with cursor "${output.next_cursor}")` : "";
    return { type: "tool_result", tool_use_id: toolUseId, content: `${body}${more}` };
  },
  renderToolResult: (output) => ({
    kind: "list",
    title: "Agents and sessions",
    items: output.entries.map(line),
  }),
});
