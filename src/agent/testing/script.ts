// Scripted conversations for the provider test servers: a list of turns, each a list of blocks, plus
// knobs for what real servers do (HTTP errors, errors mid-stream, pacing, holding the end of a message).

export type ScriptBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string; signature?: string }
  | { type: "redacted_thinking"; data: string }
  | {
      type: "tool_use";
      name: string;
      /** An object sent as JSON, or a string sent verbatim as the arguments text (malformed JSON tests). */
      input: unknown;
      id?: string;
    };

export interface ScriptUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

export interface ScriptTurn {
  blocks?: ScriptBlock[];
  /** Default: tool_use when a block is a tool call, else end_turn. */
  stopReason?: "end_turn" | "tool_use" | "max_tokens" | "stop_sequence";
  usage?: ScriptUsage;
  /** Answer with this HTTP status and error body instead of a stream (429, 401, 500, 529...). */
  httpError?: { status: number; type?: string; message?: string; retryAfterSeconds?: number };
  /** Send an error event after this many blocks, then end the stream (Anthropic `overloaded_error`). */
  streamError?: { afterBlocks: number; type: string; message: string };
  /** Pause before every event (ms): a slow model. */
  eventDelayMs?: number;
  /** Spread the whole message over this many ms (events evenly paced). */
  spreadMs?: number;
  /** Awaited before the message's final events (message_delta/message_stop, finish_reason/[DONE]). */
  beforeStop?: () => Promise<void>;
  /** Stop sending after this many blocks and keep the connection open (abort tests). */
  hangAfterBlocks?: number;
  /** Characters per streamed delta (default 7): small pieces exercise reassembly. */
  chunkSize?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as received, for byte-for-byte prefix checks. */
  rawBody: string;
  body: Record<string, unknown>;
  /** Which turn answered it (index into the script), or -1 when rejected before the script. */
  turnIndex: number;
}

/** A list of turns played in order, or a function choosing the turn for each request. */
export type Script = ScriptTurn[] | ((request: RecordedRequest, index: number) => ScriptTurn);

export function text(value: string): ScriptBlock {
  return { type: "text", text: value };
}

export function toolUse(name: string, input: unknown, id?: string): ScriptBlock {
  return { type: "tool_use", name, input, ...(id ? { id } : {}) };
}

export function thinking(value: string, signature = "sig-test"): ScriptBlock {
  return { type: "thinking", thinking: value, signature };
}

export function chunks(value: string, size: number): string[] {
  if (value.length === 0) return [""];
  const parts: string[] = [];
  for (let i = 0; i < value.length; i += size) parts.push(value.slice(i, i + size));
  return parts;
}

export function argumentsText(input: unknown): string {
  return typeof input === "string" ? input : JSON.stringify(input ?? {});
}

/** The usage a turn reports: its own numbers, else 100 in and 20 out, nothing cached. */
export function usageOf(turn: ScriptTurn): Required<ScriptUsage> {
  return {
    input_tokens: turn.usage?.input_tokens ?? 100,
    output_tokens: turn.usage?.output_tokens ?? 20,
    cache_creation_input_tokens: turn.usage?.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: turn.usage?.cache_read_input_tokens ?? 0,
  };
}

export function defaultStopReason(turn: ScriptTurn): NonNullable<ScriptTurn["stopReason"]> {
  if (turn.stopReason) return turn.stopReason;
  return (turn.blocks ?? []).some((block) => block.type === "tool_use") ? "tool_use" : "end_turn";
}
