// SendMessage: a message for a sub-agent of this session (by name or id, or `*` for all running ones),
// for the main agent ("main"), or for another Keel session of this user on this machine (by its name or
// session id, or `uds:<socket path>`). A running agent gets it with its next model request; a finished
// one is resumed with it in the background (its answer comes as a task notification); another session
// sees it between its turns. Messages to other sessions need approval unless a rule allows SendMessage:
// the other session acts on them with its own permissions.
import { readFileSync } from "node:fs";
import * as z from "zod";
import type { PermissionResult } from "../../permissions/types.ts";
import { findPeer, listPeers, type PeerSession, socketProblem } from "../../sessions/peerDirectory.ts";
import { sendPeerMessage } from "../../sessions/peerMessages.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { errorMessage, ToolError } from "../../tool/errors.ts";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { buildTool } from "../../tool/Tool.ts";
import { resumeAgent } from "../agent/resume.ts";
import { findAgent, listAgents, type RegisteredAgent } from "../agent/runningAgents.ts";
import { agentRuntimeOf } from "../agent/runtime.ts";
import { sendMessageToolMeta } from "./meta.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

const inputSchema = z.strictObject({
  to: z
    .string()
    .trim()
    .min(1)
    .describe(
      'An agent\'s name or id, "*" for every running agent, "main" for the main agent, or another Keel session of this user on this machine: its name, its session id, or "uds:<socket path>"',
    ),
  message: z.string().min(1).describe("What to tell the recipient"),
});

export type SendMessageInput = z.infer<typeof inputSchema>;

export interface Delivery {
  kind: "agent" | "resumed" | "main" | "session";
  id: string;
  name?: string;
  agentType?: string;
  /** A resumed agent's background task. */
  taskId?: string;
}

export interface SendMessageOutput {
  delivered: Delivery[];
}

function label(agent: Pick<RegisteredAgent, "id" | "name">): string {
  return agent.name ? `${agent.name} (${agent.id})` : agent.id;
}

function known(context: ToolUseContext): string {
  const agents = listAgents(context.options.sessionId);
  const names = agents.map((agent) => `${label(agent)} ${agent.status}`);
  const sessions = listPeers(sessionEnv(context), { exclude: context.options.sessionId }).map(
    (peer) => peer.name ?? peer.sessionId,
  );
  return [
    names.length > 0 ? `Agents of this session: ${names.join(", ")}.` : "This session has no sub-agents.",
    sessions.length > 0
      ? `Other sessions: ${sessions.join(", ")}.`
      : "No other Keel session of yours is running.",
  ].join(" ");
}

function sessionEnv(_context: ToolUseContext): NodeJS.ProcessEnv {
  return process.env;
}

/** Where a message to `to` goes, without sending it. */
type Target =
  | { kind: "all" }
  | { kind: "main" }
  | { kind: "agent"; agent: RegisteredAgent }
  | { kind: "session"; socket: string; peer?: PeerSession };

function resolveTarget(to: string, context: ToolUseContext): Target {
  if (to === "*") return { kind: "all" };
  const agent = findAgent(context.options.sessionId, to);
  if (agent) return { kind: "agent", agent };
  if (to === "main") return { kind: "main" };
  if (to.startsWith("uds:")) {
    const socket = to.slice("uds:".length);
    const problem = socketProblem(socket);
    if (problem) throw new ToolError("invalid_input", `Cannot send to ${to}: ${problem}`);
    return { kind: "session", socket };
  }
  const peer = findPeer(listPeers(sessionEnv(context), { exclude: context.options.sessionId }), to);
  if (peer && "error" in peer) throw new ToolError("invalid_input", peer.error);
  if (peer) return { kind: "session", socket: peer.socket, peer };
  throw new ToolError("not_found", `No agent or session named or numbered "${to}". ${known(context)}`);
}

function from(context: ToolUseContext): string {
  if (!context.agentId) return "the main agent";
  const sender = listAgents(context.options.sessionId).find((agent) => agent.id === context.agentId);
  return `agent ${label(sender ?? { id: context.agentId })}`;
}

function deliveryText(delivery: Delivery): string {
  const who = delivery.name ? `${delivery.name} (${delivery.id})` : delivery.id;
  if (delivery.kind === "agent")
    return `Message queued for ${who}; it arrives with the agent's next model request.`;
  if (delivery.kind === "resumed")
    return `${who} had finished, so it was resumed in the background with your message and everything it had before (task ${delivery.taskId}). Its answer will arrive as a task notification; TaskOutput reads its progress.`;
  if (delivery.kind === "main")
    return "Message queued for the main agent; it arrives with its next model request.";
  return `Message delivered to the session ${who}; it sees it between its turns, and acts on it with its own permissions.`;
}

function resultText(output: SendMessageOutput): string {
  return output.delivered.map(deliveryText).join("\n");
}

export const SendMessageTool = buildTool<SendMessageInput, SendMessageOutput>({
  ...sendMessageToolMeta,
  searchHint: "send a message to a sub-agent, the main agent, or another session on this machine",
  inputSchema,
  maxResultSizeChars: 10_000,
  requiresAgentLoop: true,
  prompt: () => PROMPT,
  description: (input) => `Message to ${input.to}`,
  isReadOnly: true,
  isConcurrencySafe: true,
  async validateInput(input, context) {
    try {
      resolveTarget(input.to, context);
      return { result: true };
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      return { result: false, errorCode: error.code, message: error.message };
    }
  },
  // Decided from the session's own registry and the name alone (no folder is read on the decision path).
  async checkPermissions(input, context): Promise<PermissionResult<SendMessageInput>> {
    const local =
      input.to === "*" || input.to === "main" || findAgent(context.options.sessionId, input.to) !== undefined;
    if (local)
      return {
        behavior: "allow",
        updatedInput: input,
        decisionReason: { type: "tool", reason: "messages between the session's own agents" },
      };
    return {
      behavior: "passthrough",
      message: `SendMessage to another session (${input.to}) needs approval: that session acts on the message with its own permissions`,
    };
  },

  async call(input, context) {
    const sessionId = context.options.sessionId;
    const target = resolveTarget(input.to, context);
    const text = `Message from ${from(context)} (SendMessage):\n${input.message}`;
    switch (target.kind) {
      case "all": {
        const running = listAgents(sessionId).filter(
          (agent) => agent.status === "running" && agent.id !== context.agentId,
        );
        if (running.length === 0)
          throw new ToolError("not_found", "No other sub-agent is running; nothing was sent.");
        for (const agent of running) agent.send(text);
        return { data: { delivered: running.map((agent) => agentDelivery(agent, "agent")) } };
      }
      case "main": {
        const runtime = agentRuntimeOf(context);
        if (!context.agentId || !runtime)
          throw new ToolError(
            "invalid_input",
            'You are the main agent; "main" is you. Send to a sub-agent or a session.',
          );
        runtime.sendToMain(text);
        return { data: { delivered: [{ kind: "main", id: "main" }] } };
      }
      case "agent": {
        const agent = target.agent;
        if (agent.id === context.agentId)
          throw new ToolError("invalid_input", "That is you; send the message to another agent.");
        if (agent.status === "running") {
          agent.send(text);
          return { data: { delivered: [agentDelivery(agent, "agent")] } };
        }
        const resumed = await resumeAgent(agent, text, context);
        return { data: { delivered: [{ ...agentDelivery(agent, "resumed"), taskId: resumed.taskId }] } };
      }
      case "session": {
        const state = context.getAppState();
        try {
          await sendPeerMessage(
            target.socket,
            {
              type: "message",
              from: {
                sessionId,
                ...(context.options.sessionName ? { name: context.options.sessionName } : {}),
                pid: process.pid,
                cwd: state.cwd,
              },
              text: context.agentId ? `(from ${from(context)}) ${input.message}` : input.message,
            },
            context.abortController.signal,
          );
        } catch (error) {
          throw new ToolError(
            "tool_failed",
            `Could not deliver to ${input.to}: ${errorMessage(error)}. ${known(context)}`,
          );
        }
        const id = target.peer?.sessionId ?? `uds:${target.socket}`;
        return {
          data: {
            delivered: [{ kind: "session", id, ...(target.peer?.name ? { name: target.peer.name } : {}) }],
          },
        };
      }
    }
  },

  mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
    return { type: "tool_result", tool_use_id: toolUseId, content: resultText(output) };
  },
  renderToolUse: (input) => ({ kind: "text", text: `SendMessage to ${input.to}` }),
  renderToolResult: (output) => ({ kind: "text", text: resultText(output) }),
});

function agentDelivery(agent: RegisteredAgent, kind: "agent" | "resumed"): Delivery {
  return { kind, id: agent.id, ...(agent.name ? { name: agent.name } : {}), agentType: agent.agentType };
}
