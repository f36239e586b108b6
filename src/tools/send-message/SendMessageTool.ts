// SendMessage: a message for a running sub-agent of this session, by name or id, or `*` for all of them.
// It is queued and joins the agent's next model request.
import { readFileSync } from "node:fs";
import { z } from "zod";
import { ToolError } from "../../tool/errors.ts";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { allowedByTool, buildTool } from "../../tool/Tool.ts";
import { findAgent, listAgents, type RegisteredAgent } from "../agent/runningAgents.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

const inputSchema = z.strictObject({
  to: z.string().trim().min(1).describe('The agent\'s name or id, or "*" for every running agent'),
  message: z.string().min(1).describe("What to tell the agent"),
});

export type SendMessageInput = z.infer<typeof inputSchema>;

export interface SendMessageOutput {
  delivered: Array<{ id: string; name?: string; agentType: string }>;
}

function label(agent: Pick<RegisteredAgent, "id" | "name">): string {
  return agent.name ? `${agent.name} (${agent.id})` : agent.id;
}

function running(agents: readonly RegisteredAgent[]): string {
  const names = agents.filter((agent) => agent.status === "running").map(label);
  return names.length > 0 ? `Running agents: ${names.join(", ")}.` : "No sub-agent is running.";
}

function resultText(output: SendMessageOutput): string {
  return `Message queued for ${output.delivered.map(label).join(", ")}; it arrives with ${output.delivered.length === 1 ? "the agent's" : "each agent's"} next model request.`;
}

export const SendMessageTool = buildTool<SendMessageInput, SendMessageOutput>({
  name: "SendMessage",
  searchHint: "send a message to a running sub-agent",
  inputSchema,
  maxResultSizeChars: 10_000,
  requiresAgentLoop: true,
  prompt: () => PROMPT,
  description: (input) => `Message to ${input.to}`,
  isReadOnly: true,
  isConcurrencySafe: true,
  // Talking to the session's own agents reaches nothing outside the session; what they do is checked as they do it.
  checkPermissions: allowedByTool("messages between the session's own agents"),

  async call(input, context) {
    const sessionId = context.options.sessionId;
    const agents = listAgents(sessionId);
    const sender = context.agentId
      ? (agents.find((agent) => agent.id === context.agentId) ?? { id: context.agentId })
      : undefined;
    const from = sender ? `agent ${label(sender)}` : "the main agent";
    let targets: RegisteredAgent[];
    if (input.to === "*") {
      targets = agents.filter((agent) => agent.status === "running" && agent.id !== context.agentId);
      if (targets.length === 0)
        throw new ToolError("not_found", "No other sub-agent is running; nothing was sent.");
    } else {
      const target = findAgent(sessionId, input.to);
      if (!target)
        throw new ToolError(
          "not_found",
          `No agent named or numbered "${input.to}" in this session. ${running(agents)}`,
        );
      if (target.id === context.agentId)
        throw new ToolError("invalid_input", "That is you; send the message to another agent.");
      if (target.status !== "running")
        throw new ToolError(
          "wrong_state",
          `Agent ${label(target)} has ${target.status === "stopped" ? "been stopped" : `finished (${target.status})`} and takes no more messages.${target.background ? ` Its report is in TaskOutput (task_id "${target.id}").` : ""} Start a new Agent to go on. ${running(agents)}`,
        );
      targets = [target];
    }
    for (const target of targets) target.send(`Message from ${from} (SendMessage):\n${input.message}`);
    return {
      data: {
        delivered: targets.map((target) => ({
          id: target.id,
          ...(target.name ? { name: target.name } : {}),
          agentType: target.agentType,
        })),
      },
    };
  },

  mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
    return { type: "tool_result", tool_use_id: toolUseId, content: resultText(output) };
  },
  renderToolUse: (input) => ({ kind: "text", text: `SendMessage to ${input.to}` }),
  renderToolResult: (output) => ({ kind: "text", text: resultText(output) }),
});
