// Small rules of the conversation list, shared by the loop and transcript replay so both build the
// same list: consecutive user content merges into one user message (the APIs want turns to alternate).
import type { ContentBlock, Message } from "../tool/messages.ts";

export function blocksOf(content: Message["content"]): ContentBlock[] {
  return typeof content === "string" ? (content === "" ? [] : [{ type: "text", text: content }]) : content;
}

/** Appends in place; user content after a user message joins it. */
export function appendMessage(messages: Message[], message: Message): void {
  const last = messages.at(-1);
  if (last && last.role === "user" && message.role === "user") {
    messages[messages.length - 1] = {
      role: "user",
      content: [...blocksOf(last.content), ...blocksOf(message.content)],
    };
    return;
  }
  messages.push(message);
}

export function textOf(content: Message["content"]): string {
  return blocksOf(content)
    .filter((block): block is Extract<ContentBlock, { type: "text" }> => block.type === "text")
    .map((block) => block.text)
    .join("");
}
