// Reading one hook event from stdin: bounded in size and time, parsed as one JSON object. Anything
// else is a problem described in one line, for a no-opinion answer.

/** An event larger than this is not read (a Write of a huge file): no opinion. */
export const MAX_EVENT_BYTES = 16 * 1024 * 1024;
/** The agent writes the event and closes stdin at once; waiting longer means nothing is coming. */
export const STDIN_TIMEOUT_MS = 10_000;

/** What went wrong reading stdin, in the words every reader of an event uses (readEvent, the server client). */
export const stdinProblem = {
  timedOut: (timeoutMs: number) => `no complete event on stdin within ${timeoutMs / 1000} s`,
  tooLarge: (maxBytes: number) => `the event is larger than ${maxBytes} bytes; not read`,
  failed: (message: string) => `stdin failed: ${message}`,
};

export type EventRead = { ok: true; event: Record<string, unknown> } | { ok: false; problem: string };

export function parseEvent(text: string): EventRead {
  if (text.trim() === "") return { ok: false, problem: "no event on stdin (expected one JSON object)" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `the event on stdin is not JSON (${(error as Error).message})` };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return { ok: false, problem: "the event on stdin is not a JSON object" };
  return { ok: true, event: value as Record<string, unknown> };
}

export interface ReadEventOptions {
  maxBytes?: number;
  timeoutMs?: number;
}

/** Standard input read whole, or why not (in stdinProblem's words). */
export type StdinText = { text: string } | { problem: string };

/**
 * Reads the stream to its end (or the limit, or the timeout). Short of its end, the stream is destroyed:
 * an open stdin (a huge event, a writer that never closes it) would keep the process alive after it
 * answered. A stream, not reads of the descriptor: a read waiting in Node's thread pool cannot be
 * cancelled, and even process.exit() waits for it.
 */
export function readStreamText(
  stream: NodeJS.ReadableStream,
  options: ReadEventOptions = {},
): Promise<StdinText> {
  const maxBytes = options.maxBytes ?? MAX_EVENT_BYTES;
  const timeoutMs = options.timeoutMs ?? STDIN_TIMEOUT_MS;
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (given: StdinText) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stream.removeListener("data", onData);
      stream.removeListener("end", onEnd);
      stream.removeListener("error", onError);
      if ("problem" in given && "destroy" in stream && typeof stream.destroy === "function") stream.destroy();
      resolve(given);
    };
    const onData = (chunk: Buffer | string) => {
      const part = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += part.length;
      if (size > maxBytes) return finish({ problem: stdinProblem.tooLarge(maxBytes) });
      parts.push(part);
    };
    const onEnd = () => finish({ text: Buffer.concat(parts).toString("utf8") });
    const onError = (error: Error) => finish({ problem: stdinProblem.failed(error.message) });
    const timer = setTimeout(() => finish({ problem: stdinProblem.timedOut(timeoutMs) }), timeoutMs);
    timer.unref?.();
    stream.on("data", onData);
    stream.on("end", onEnd);
    stream.on("error", onError);
  });
}

/** Reads the stream as readStreamText does and parses the event. */
export async function readEvent(
  stream: NodeJS.ReadableStream,
  options: ReadEventOptions = {},
): Promise<EventRead> {
  const given = await readStreamText(stream, options);
  return "text" in given ? parseEvent(given.text) : { ok: false, problem: given.problem };
}
