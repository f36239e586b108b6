// The lines of `--output-format stream-json`, in Claude Code 2.1.332's shapes: every line carries
// `session_id` and a `uuid`; an assistant message is one line per content block (same `message.id`),
// tool results one `user` line each with `tool_result_meta`; a refused call is also a `system`
// `permission_denied` line. Keel's own detail of each decision is a `system` line of subtype
// `tool_decision`, which Claude Code's parsers skip as they skip every system subtype they do not know.

import { claudeCodeDecision } from "../permissions/claudeCodeDecision.ts";
import type { ResultEvent } from "../pipeline/runToolUse.ts";
import { randomUUID } from "../tool/lazyCrypto.ts";
import type { ContentBlock, Message } from "../tool/messages.ts";
import type { AgentEvent } from "./events.ts";
import { apiStopReason, apiUsage, isRefusal } from "./printRecords.ts";

export type StreamRecord = Record<string, unknown>;

/** Turns agent events into stream-json lines for one session. */
export class StreamRecords {
  readonly #sessionId: string;
  readonly #partial: boolean;
  /** Results seen, by call id, for the `user` line that carries them back to the model. */
  readonly #results = new Map<string, ResultEvent>();

  constructor(sessionId: string, partial: boolean) {
    this.#sessionId = sessionId;
    this.#partial = partial;
  }

  /** Claude Code's envelope: the session, a fresh uuid, and (for messages) no parent tool call. */
  #line(record: StreamRecord, message = false): StreamRecord {
    return {
      ...record,
      ...(message ? { parent_tool_use_id: null } : {}),
      session_id: this.#sessionId,
      uuid: randomUUID(),
      ...(message ? { timestamp: new Date().toISOString() } : {}),
    };
  }

  records(event: AgentEvent): StreamRecord[] {
    switch (event.type) {
      case "stream":
        return this.#partial ? [this.#line({ type: "stream_event", event: event.event }, true)] : [];
      case "assistant":
        return this.#assistant(event);
      case "user":
        return this.#user(event.message);
      case "tool_result":
        return this.#decision(event.result);
      case "retry":
        return [
          this.#line({
            type: "system",
            subtype: "retry",
            attempt: event.attempt,
            delay_ms: event.delayMs,
            error: event.error.message,
          }),
        ];
      case "notice":
        return [this.#line({ type: "system", subtype: "notice", level: event.level, text: event.text })];
      case "compacted":
        return [
          this.#line({
            type: "system",
            subtype: "compacted",
            trigger: event.trigger,
            summarized: event.summarizedMessages,
            kept: event.keptMessages,
          }),
        ];
      default:
        return [];
    }
  }

  #assistant(event: Extract<AgentEvent, { type: "assistant" }>): StreamRecord[] {
    const blocks =
      typeof event.message.content === "string" ? [textBlock(event.message.content)] : event.message.content;
    // A message cut short has no id from the API: one of Keel's, shared by its lines.
    const id = event.messageId ?? `msg_keel_${randomUUID().replaceAll("-", "")}`;
    return blocks.map((block) =>
      this.#line(
        {
          type: "assistant",
          message: {
            id,
            type: "message",
            role: "assistant",
            model: event.model,
            content: [block],
            stop_reason: apiStopReason(event.stopReason),
            stop_sequence: null,
            usage: apiUsage(event.usage),
          },
        },
        true,
      ),
    );
  }

  /** One line per tool result (with the text hooks added after it); other content as one line. */
  #user(message: Message): StreamRecord[] {
    const blocks = typeof message.content === "string" ? [textBlock(message.content)] : message.content;
    const groups: ContentBlock[][] = [];
    for (const block of blocks) {
      const last = groups.at(-1);
      if (block.type === "tool_result" || !last) groups.push([block]);
      else last.push(block);
    }
    return groups.map((content) => {
      const first = content[0];
      const result = first?.type === "tool_result" ? this.#results.get(first.tool_use_id) : undefined;
      return this.#line(
        {
          type: "user",
          message: { role: "user", content },
          ...(result ? toolResultFields(result) : {}),
        },
        true,
      );
    });
  }

  #decision(result: ResultEvent): StreamRecord[] {
    this.#results.set(result.toolUseId, result);
    const words = result.decision
      ? claudeCodeDecision(result.decision.behavior, result.decision.reason)
      : undefined;
    const lines = [
      this.#line({
        type: "system",
        subtype: "tool_decision",
        tool_use_id: result.toolUseId,
        tool_name: result.toolName,
        is_error: result.isError,
        ...(result.errorCode ? { error_code: result.errorCode } : {}),
        ...(result.decision
          ? { behavior: result.decision.behavior, decided_by: result.decision.decidedBy, ...words }
          : {}),
      }),
    ];
    if (isRefusal(result))
      lines.push(
        this.#line({
          type: "system",
          subtype: "permission_denied",
          tool_name: result.toolName,
          tool_use_id: result.toolUseId,
          message: resultText(result),
        }),
      );
    return lines;
  }
}

function textBlock(text: string): ContentBlock {
  return { type: "text", text };
}

function resultText(result: ResultEvent): string {
  const content = result.block.content;
  if (typeof content === "string") return content;
  return content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/**
 * Claude Code's extras of a tool result line: the tool's own output and, for a call that reached the
 * permission step, how it was decided (`user-rejected` when it was refused for want of an approval).
 */
function toolResultFields(result: ResultEvent): StreamRecord {
  const output = result.isError ? `Error: ${resultText(result)}` : (result.output ?? resultText(result));
  if (!result.decision) return { tool_use_result: output };
  const { behavior, reason } = result.decision;
  const unapproved = behavior === "deny" && (reason.type === "noPrompter" || reason.type === "user");
  return {
    tool_use_result: output,
    tool_result_meta: [
      {
        id: result.toolUseId,
        ...(unapproved ? { non_execution_kind: "user-rejected" } : {}),
        permission_decision: claudeCodeDecision(behavior, reason),
      },
    ],
  };
}
