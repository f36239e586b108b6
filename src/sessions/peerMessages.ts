// One message between sessions on one machine: a JSON line over the receiving session's Unix socket,
// answered by one JSON line. Bounded: a message is at most MAX_MESSAGE_BYTES, a connection lives at most
// CONNECTION_TIMEOUT_MS, and a listener serves at most MAX_CONNECTIONS at once.
import { createConnection } from "node:net";

export const MAX_MESSAGE_BYTES = 64 * 1024;
export const CONNECTION_TIMEOUT_MS = 5_000;
export const MAX_CONNECTIONS = 16;

export interface PeerMessage {
  type: "message";
  from: { sessionId: string; name?: string; pid: number; cwd: string };
  text: string;
}

export type PeerAnswer = { ok: true } | { ok: false; error: string };

export function parsePeerMessage(line: string): PeerMessage | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { error: "not JSON" };
  }
  const message = value as Partial<PeerMessage> | null;
  const from = message?.from as Partial<PeerMessage["from"]> | undefined;
  if (
    message?.type !== "message" ||
    typeof message.text !== "string" ||
    message.text === "" ||
    typeof from?.sessionId !== "string" ||
    typeof from.pid !== "number" ||
    typeof from.cwd !== "string" ||
    (from.name !== undefined && typeof from.name !== "string")
  )
    return { error: "expected {type: 'message', from: {sessionId, pid, cwd, name?}, text}" };
  return message as PeerMessage;
}

/** Sends one message to the session listening on `socket`; resolves when it has taken it. */
export function sendPeerMessage(socket: string, message: PeerMessage, signal?: AbortSignal): Promise<void> {
  const line = `${JSON.stringify(message)}\n`;
  if (Buffer.byteLength(line) > MAX_MESSAGE_BYTES)
    return Promise.reject(
      new Error(`the message is over ${MAX_MESSAGE_BYTES / 1024} KiB; send a shorter one`),
    );
  return new Promise((resolve, reject) => {
    const connection = createConnection(socket);
    let answer = "";
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      connection.destroy();
      if (error) reject(error);
      else resolve();
    };
    const onAbort = () => finish(new Error("cancelled"));
    const timer = setTimeout(
      () => finish(new Error(`the session did not answer within ${CONNECTION_TIMEOUT_MS / 1000} s`)),
      CONNECTION_TIMEOUT_MS,
    );
    signal?.addEventListener("abort", onAbort, { once: true });
    connection.setEncoding("utf8");
    connection.on("connect", () => connection.write(line));
    connection.on("data", (chunk: string) => {
      answer += chunk;
      const end = answer.indexOf("\n");
      if (end === -1) {
        if (answer.length > 4096) finish(new Error("the session answered with something that is not Keel's"));
        return;
      }
      let parsed: PeerAnswer;
      try {
        parsed = JSON.parse(answer.slice(0, end)) as PeerAnswer;
      } catch {
        return finish(new Error("the session answered with something that is not Keel's"));
      }
      finish(parsed.ok ? undefined : new Error(parsed.error));
    });
    connection.on("error", (error: NodeJS.ErrnoException) =>
      finish(
        new Error(
          error.code === "ECONNREFUSED" || error.code === "ENOENT"
            ? "nothing listens there any more (the session ended)"
            : error.message,
        ),
      ),
    );
    connection.on("close", () => finish(new Error("the session closed the connection without an answer")));
  });
}
