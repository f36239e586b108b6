// `keel run --input-format stream-json`: one user message per stdin line, in Claude Code's shape
// `{"type":"user","message":{"role":"user","content":"..." | [blocks]}}`, each answered before the next
// is taken. Blank lines are skipped; a line that is not a user message stops the run with its number.
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { PrintPrompt } from "../../agent/printMode.ts";
import type { ContentBlock } from "../../tool/messages.ts";
import { CliError } from "../exitCodes.ts";

const EXAMPLE = '{"type":"user","message":{"role":"user","content":"fix the failing test"}}';

function isBlock(value: unknown): value is ContentBlock {
  if (value === null || typeof value !== "object") return false;
  const block = value as { type?: unknown; text?: unknown; source?: unknown };
  if (block.type === "text") return typeof block.text === "string";
  return block.type === "image" && typeof block.source === "object" && block.source !== null;
}

/** The prompt a stdin line holds; throws CliError naming the line when it is not a user message. */
export function promptFromLine(text: string, lineNumber: number): PrintPrompt {
  const bad = (why: string) =>
    new CliError(
      `stdin line ${lineNumber} is not a user message (${why}). Send one JSON object per line, e.g. ${EXAMPLE}`,
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw bad(`invalid JSON: ${(error as Error).message}`);
  }
  const record = value as { type?: unknown; message?: { role?: unknown; content?: unknown } } | null;
  if (record === null || typeof record !== "object" || record.type !== "user")
    throw bad('"type" must be "user"');
  const content = record.message?.content;
  if (typeof content === "string") {
    if (content.trim() === "") throw bad("the content is empty");
    return content;
  }
  if (Array.isArray(content) && content.length > 0 && content.every(isBlock)) return content;
  throw bad('"message.content" must be a string or a list of text and image blocks');
}

/** The prompts on `input`, one per non-blank line; strings go through `expand` (custom commands). */
export async function* readStreamJsonPrompts(
  input: Readable,
  expand: (prompt: string) => Promise<string>,
): AsyncGenerator<PrintPrompt> {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let number = 0;
  try {
    for await (const line of lines) {
      number++;
      if (line.trim() === "") continue;
      const prompt = promptFromLine(line, number);
      yield typeof prompt === "string" ? await expand(prompt) : prompt;
    }
  } finally {
    lines.close();
  }
}
