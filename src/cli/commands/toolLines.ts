// `keel tool --jsonl`: several calls in one session, one JSON object per stdin line
// (`{"name": "Read", "input": {...}, "id"?: "..."}`, or an Anthropic `tool_use` block), one result per
// stdout line, in order. One session means what Edit and Write need from an earlier Read (the read
// state), a Bash `cd` and other context changes carry from call to call.

import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { runToolCalls } from "../../pipeline/orchestrate.ts";
import type { ResultEvent } from "../../pipeline/runToolUse.ts";
import { randomUUID } from "../../tool/lazyCrypto.ts";
import type { ToolUseBlock } from "../../tool/messages.ts";
import { EXIT } from "../exitCodes.ts";
import { JSONL_EXAMPLE } from "../input.ts";
import type { CliSession } from "../session.ts";

/** The call a line holds, or why it holds none. */
export function callFromLine(
  text: string,
  lineNumber: number,
): ToolUseBlock | { error: string; code: "invalid_json" | "invalid_input" } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: `line ${lineNumber} is not JSON (${(error as Error).message})`, code: "invalid_json" };
  }
  const record = value as { name?: unknown; tool?: unknown; input?: unknown; id?: unknown } | null;
  const name = record?.name ?? record?.tool;
  if (record === null || typeof record !== "object" || typeof name !== "string" || name === "")
    return {
      error: `line ${lineNumber} names no tool: send one call per line, e.g. ${JSONL_EXAMPLE}`,
      code: "invalid_input",
    };
  const id = typeof record.id === "string" && record.id ? record.id : `cli_${randomUUID()}`;
  return { type: "tool_use", id, name, input: record.input ?? {} };
}

export function resultLine(result: ResultEvent): Record<string, unknown> {
  return {
    id: result.toolUseId,
    name: result.toolName,
    is_error: result.isError,
    ...(result.errorCode ? { error_code: result.errorCode } : {}),
    content: result.block.content,
    decision: result.decision
      ? {
          behavior: result.decision.behavior,
          decidedBy: result.decision.decidedBy,
          reason: result.decision.reason,
        }
      : null,
  };
}

export interface JsonLinesOptions {
  input: Readable;
  output: Writable;
  errors: Writable;
  exitCodeFor: (result: ResultEvent) => number;
}

/** Runs every call on `input` in order in one session; resolves to the first failure's exit code (0: none). */
export async function runJsonLines(session: CliSession, options: JsonLinesOptions): Promise<number> {
  let context = session.context;
  let exitCode: number = EXIT.ok;
  const fail = (code: number) => {
    if (exitCode === EXIT.ok) exitCode = code;
  };
  const lines = createInterface({ input: options.input, crlfDelay: Number.POSITIVE_INFINITY });
  let number = 0;
  try {
    for await (const text of lines) {
      number++;
      if (text.trim() === "") continue;
      if (context.abortController.signal.aborted) break;
      const call = callFromLine(text, number);
      if ("error" in call) {
        options.output.write(
          `${JSON.stringify({ line: number, is_error: true, error_code: call.code, content: call.error })}\n`,
        );
        fail(EXIT.usage);
        continue;
      }
      const calls = runToolCalls([call], context, session.services);
      for (;;) {
        const next = await calls.next();
        if (next.done) {
          context = next.value;
          break;
        }
        const event = next.value;
        if (event.type !== "result") continue;
        for (const message of event.userMessages) options.errors.write(`keel: ${message}\n`);
        options.output.write(`${JSON.stringify(resultLine(event))}\n`);
        if (event.isError) fail(options.exitCodeFor(event));
      }
    }
  } finally {
    lines.close();
  }
  return exitCode;
}
