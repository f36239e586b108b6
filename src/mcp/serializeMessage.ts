// A JSON-RPC message as the line sent to the client: JSON.stringify's exact text. A call's large text
// blocks are escaped once and reused while the same text is sent again (a re-read of an unchanged
// file hands on the same answer; escaping 90 KB costs as much as the rest of the call). Bounded: at most
// MAX_KEPT texts of MIN_KEPT_CHARS to MAX_KEPT_CHARS each, the least recently sent dropped first.
import { randomBytes } from "node:crypto";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { LruMap } from "../tool/lruMap.ts";

export const MIN_KEPT_CHARS = 16 << 10;
export const MAX_KEPT_CHARS = 256 << 10;
export const MAX_KEPT = 8;

const escaped = new LruMap<string, string>(MAX_KEPT);

/** Stands in for a text while the rest is serialized: unguessable, so no other string of the message holds it. */
const MARKER = `\u0000keel-${randomBytes(16).toString("hex")}-`;

type TextBlock = { type: string; text: string };

function isKeptSize(block: unknown): block is TextBlock {
  if (typeof block !== "object" || block === null) return false;
  const text = (block as { text?: unknown }).text;
  return typeof text === "string" && text.length >= MIN_KEPT_CHARS && text.length <= MAX_KEPT_CHARS;
}

/** JSON.stringify(text), from the kept ones when this text was sent lately. */
function escapedText(text: string): string {
  let json = escaped.get(text);
  if (json === undefined) {
    json = JSON.stringify(text);
    escaped.set(text, json);
  }
  return json;
}

/** JSON.stringify(message), with the large text blocks of a result escaped once for all their sends. */
export function serializeMessage(message: JSONRPCMessage): string {
  const result = (message as { result?: { content?: unknown } }).result;
  const content = result?.content;
  if (!Array.isArray(content) || !content.some(isKeptSize)) return JSON.stringify(message);
  const texts: string[] = [];
  const standIns = content.map((block: unknown) =>
    isKeptSize(block) ? { ...block, text: MARKER + (texts.push(escapedText(block.text)) - 1) } : block,
  );
  // Spreads keep each key where it was, so the text around the stand-ins is JSON.stringify's own.
  const json = JSON.stringify({ ...message, result: { ...result, content: standIns } });
  let line = "";
  let from = 0;
  for (const [index, text] of texts.entries()) {
    const standIn = JSON.stringify(MARKER + index);
    const at = json.indexOf(standIn, from);
    line += json.slice(from, at) + text;
    from = at + standIn.length;
  }
  return line + json.slice(from);
}

/** How many escaped texts are kept (for tests of the bound). */
export function keptEscapedTexts(): number {
  return escaped.size;
}
