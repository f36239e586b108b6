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

/** Reads the stream to its end (or the limit, or the timeout) and parses it. */
export function readEvent(stream: NodeJS.ReadableStream, options: ReadEventOptions = {}): Promise<EventRead> {
  const maxBytes = options.maxBytes ?? MAX_EVENT_BYTES;
  const timeoutMs = options.timeoutMs ?? STDIN_TIMEOUT_MS;
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: EventRead) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stream.removeListener("data", onData);
      stream.removeListener("end", onEnd);
      stream.removeListener("error", onError);
      // Stop reading what is left (a huge event, a writer that never closes): an open stdin would keep
      // the process alive after it answered.
      if (!result.ok && "destroy" in stream && typeof stream.destroy === "function") stream.destroy();
      resolve(result);
    };
    const onData = (chunk: Buffer | string) => {
      const part = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += part.length;
      if (size > maxBytes) return finish({ ok: false, problem: stdinProblem.tooLarge(maxBytes) });
      parts.push(part);
    };
    const onEnd = () => finish(parseEvent(Buffer.concat(parts).toString("utf8")));
    const onError = (error: Error) => finish({ ok: false, problem: stdinProblem.failed(error.message) });
    const timer = setTimeout(
      () => finish({ ok: false, problem: stdinProblem.timedOut(timeoutMs) }),
      timeoutMs,
    );
    timer.unref?.();
    stream.on("data", onData);
    stream.on("end", onEnd);
    stream.on("error", onError);
  });
}
