// The saved sessions of a project as a person picks one (`/resume`): newest first, each with its first
// prompt, when it was last used and how long it is. Only the head of each transcript is read, and only
// the newest few are listed, so a project with many long sessions lists as fast as one with few.
import { closeSync, openSync, readSync } from "node:fs";
import type { Message } from "../tool/messages.ts";
import { listSessions } from "./transcript.ts";

/** How many sessions the picker lists, and how much of each transcript it reads for the first prompt. */
const MAX_LISTED = 20;
const HEAD_BYTES = 64 * 1024;
const PROMPT_CHARS = 80;

export interface SessionSummary {
  sessionId: string;
  modifiedMs: number;
  /** The first prompt the person typed, on one line. */
  firstPrompt: string;
  /** Prompts typed in the part of the transcript read (a lower bound for long sessions). */
  prompts: number;
}

function readHead(path: string): string {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const read = readSync(fd, buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, read).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/** A person's prompt: a user message with text and no tool results. */
function promptText(message: Message): string | undefined {
  if (message.role !== "user") return undefined;
  if (typeof message.content === "string") return message.content;
  if (message.content.some((block) => block.type === "tool_result")) return undefined;
  const text = message.content
    .filter((block): block is { type: "text"; text: string } => block.type === "text")
    .map((block) => block.text)
    .join(" ");
  return text || undefined;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > PROMPT_CHARS ? `${line.slice(0, PROMPT_CHARS - 1)}…` : line;
}

function summarize(path: string): { firstPrompt: string; prompts: number } | undefined {
  let head: string;
  try {
    head = readHead(path);
  } catch {
    return undefined;
  }
  let firstPrompt: string | undefined;
  let prompts = 0;
  for (const line of head.split("\n")) {
    let record: { type?: string; message?: Message };
    try {
      record = JSON.parse(line) as typeof record;
    } catch {
      continue; // The last line of the head is cut, or a torn record.
    }
    if (record.type !== "message" || !record.message) continue;
    const text = promptText(record.message);
    if (text === undefined) continue;
    prompts++;
    firstPrompt ??= oneLine(text);
  }
  return firstPrompt === undefined ? undefined : { firstPrompt, prompts };
}

/** Sessions with at least one prompt, newest first, without `except` (the session running now). */
export function sessionSummaries(dir: string, except?: string): SessionSummary[] {
  const summaries: SessionSummary[] = [];
  for (const session of listSessions(dir)) {
    if (session.sessionId === except) continue;
    const summary = summarize(session.path);
    if (summary) summaries.push({ sessionId: session.sessionId, modifiedMs: session.modifiedMs, ...summary });
    if (summaries.length >= MAX_LISTED) break;
  }
  return summaries;
}

/** "3 minutes ago", "yesterday"-like wording without a clock library: the largest whole unit. */
export function timeAgo(thenMs: number, nowMs: number): string {
  const seconds = Math.max(0, Math.round((nowMs - thenMs) / 1000));
  const units: Array<[number, string]> = [
    [86_400, "day"],
    [3_600, "hour"],
    [60, "minute"],
  ];
  for (const [size, name] of units) {
    const count = Math.floor(seconds / size);
    if (count >= 1) return `${count} ${name}${count === 1 ? "" : "s"} ago`;
  }
  return "just now";
}
