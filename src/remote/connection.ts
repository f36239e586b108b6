// Connecting to the queue's Redis with a bound: an unreachable or misconfigured Redis is one clear
// error within `timeoutMs`, never a client that retries forever in the background. Once connected,
// the client reconnects on its own (backing off up to 5 s) and commands fail fast while it is away.
import type { Redis } from "ioredis";
import { errorMessage } from "../tool/errors.ts";
import type { RemoteQueueConfig } from "./config.ts";

export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

/** The queue's Redis could not be reached, or refused us (wrong password, not Redis). */
export class QueueUnreachableError extends Error {
  readonly code = "remote_unreachable";
  constructor(message: string) {
    super(message);
    this.name = "QueueUnreachableError";
  }
}

export interface ConnectOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Shown by `CLIENT LIST` on the server: who holds the connection. */
  clientName?: string;
}

type QueueTarget = Pick<RemoteQueueConfig, "url" | "displayUrl" | "from">;

/** A connected client (PING answered), or QueueUnreachableError naming the URL (without its password). */
export async function connectRedis(target: QueueTarget, options: ConnectOptions = {}): Promise<Redis> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const { Redis } = await import("ioredis");
  let connected = false;
  const redis = new Redis(target.url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    // Replies in RESP2's shapes (stream reads are arrays of [key, [[id, fields]]]), as BullMQ expects too.
    protocol: 2,
    // How long a closing connection may linger (ioredis waits 2 s by default, keeping a process alive).
    disconnectTimeout: 300,
    // Before the first connection, one failure is the answer; after it, a dropped connection is retried.
    retryStrategy: (times) => (connected ? Math.min(times * 200, 5_000) : null),
    ...(options.clientName ? { connectionName: options.clientName } : {}),
  });
  // Failures reach the caller through the commands it runs; an unheard 'error' event must not crash.
  // The first one says why a connection failed ("Connection is closed" is all connect() says).
  let firstError: unknown;
  redis.on("error", (error) => {
    firstError ??= error;
  });
  let timer: NodeJS.Timeout | undefined;
  const onAbort = () => redis.disconnect();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    });
    await Promise.race([
      (async () => {
        await redis.connect();
        await redis.ping();
      })(),
      deadline,
    ]);
    connected = true;
    return redis;
  } catch (error) {
    redis.disconnect();
    const why = options.signal?.aborted ? "stopped" : scrub(describeFailure(firstError ?? error), target.url);
    throw new QueueUnreachableError(
      `Could not reach the remote-agent queue at ${target.displayUrl} (${target.from}): ${why}. Check that Redis runs there and that the URL is right.`,
    );
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
}

function describeFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = errorMessage(error);
  if (code === "ECONNREFUSED") return "connection refused (nothing listens on that port)";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "the host name does not resolve";
  if (/WRONGPASS|NOAUTH|invalid password/i.test(message)) return "Redis refused the password";
  return message
    .replace(/\s+/g, " ")
    .replace(/[.\s]+$/, "")
    .slice(0, 300);
}

/** A message never repeats the URL's password. */
function scrub(message: string, url: string): string {
  let password = "";
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    // Not a URL: nothing to hide.
  }
  return password ? message.split(password).join("***") : message;
}

/** Closes a client without waiting on a server that may be gone. */
export function closeRedis(redis: Redis | undefined): void {
  if (!redis) return;
  redis.disconnect();
}
