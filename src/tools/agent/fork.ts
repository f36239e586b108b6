// A fork continues the parent's conversation. Its first request must repeat the parent's byte for byte
// (same model, system prompt, tools and messages, then the parent's whole assistant message) so the
// provider's prompt cache is reused; only what follows differs. Every tool call of that message gets the
// same placeholder result, so forks started by one message share their prefix up to their own task.
import { readFileSync } from "node:fs";
import type { ContentBlock, Message, ToolResultBlock } from "../../tool/messages.ts";

export const FORK_PLACEHOLDER_RESULT = "Forked: a copy of this conversation is working on this call.";

let directive: string | undefined;

export function forkHistory(before: readonly Message[], assistant: readonly ContentBlock[]): Message[] {
  const placeholders = assistant
    .filter((block) => block.type === "tool_use")
    .map(
      (block): ToolResultBlock => ({
        type: "tool_result",
        tool_use_id: block.id,
        content: FORK_PLACEHOLDER_RESULT,
      }),
    );
  return [...before, { role: "assistant", content: [...assistant] }, { role: "user", content: placeholders }];
}

/** The fork's task, after the shared prefix. */
export function forkDirective(task: string): string {
  directive ??= readFileSync(new URL("./builtin/fork-directive.md", import.meta.url), "utf8").trim();
  return `${directive}\n${task}`;
}
