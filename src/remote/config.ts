// Where remote agents' jobs go: a Redis URL and a BullMQ queue name, from `KEEL_REMOTE_QUEUE` (and
// `KEEL_REMOTE_QUEUE_NAME`) or settings `agents.remote.queue`, checked here once so a typo is one clear
// message at spawn (or at `keel worker` start) rather than a connection that never comes.
import type { RemoteAgentsSettings } from "../settings/schema.ts";

export const DEFAULT_QUEUE_NAME = "keel-agents";
export const DEFAULT_CLAIM_TIMEOUT_MS = 120_000;
export const DEFAULT_GIT_REMOTE = "origin";

export interface RemoteQueueConfig {
  /** The Redis URL as given (it may hold a password: show `displayUrl` instead). */
  url: string;
  /** The URL without its password, for messages and logs. */
  displayUrl: string;
  /** The BullMQ queue name. */
  name: string;
  /** Where the queue came from, for messages: `KEEL_REMOTE_QUEUE` or the settings file. */
  from: string;
  /** A job no worker takes within this long is reported as unclaimed and removed from the queue. */
  claimTimeoutMs: number;
  /** The git remote the parent pushes the base commit to and the worker pushes its branch to. */
  gitRemote: string;
}

export type RemoteQueueResolution =
  | { ok: true; config: RemoteQueueConfig }
  | { ok: false; problem: string; configured: boolean };

const QUEUE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** `redis://` or `rediss://` with a host; the password, if any, hidden in `displayUrl`. */
export function parseRedisUrl(value: string): { url: string; displayUrl: string } | { problem: string } {
  let parsed: URL;
  try {
    parsed = new URL(value.trim());
  } catch {
    return {
      problem: `"${hidePassword(value)}" is not a URL; write it as redis://host:6379 (or rediss:// for TLS)`,
    };
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:")
    return {
      problem: `"${hidePassword(value)}" is not a Redis URL; write it as redis://host:6379 (or rediss:// for TLS)`,
    };
  if (parsed.hostname === "") return { problem: `"${hidePassword(value)}" names no host` };
  const db = parsed.pathname.replace(/^\//, "");
  if (db !== "" && !/^\d{1,2}$/.test(db))
    return { problem: `"${hidePassword(value)}": the path must be a database number (redis://host:6379/0)` };
  return { url: value.trim(), displayUrl: hidePassword(value.trim()) };
}

/** The URL with `user:password@` shown as `user:***@`. */
export function hidePassword(value: string): string {
  return value.replace(/^([a-z]+:\/\/)([^@/]*):([^@/]*)@/i, (_all, scheme, user) => `${scheme}${user}:***@`);
}

/** The queue a session or worker uses: the environment first, then settings `agents.remote`. */
export function resolveRemoteQueue(
  settings: (RemoteAgentsSettings & { from?: string }) | undefined,
  env: NodeJS.ProcessEnv,
  /** What to call a URL given in KEEL_REMOTE_QUEUE in messages (`keel worker --queue` passes it that way). */
  envLabel = "KEEL_REMOTE_QUEUE",
): RemoteQueueResolution {
  const fromEnv = env.KEEL_REMOTE_QUEUE?.trim();
  const queue = settings?.queue;
  const given = fromEnv
    ? { url: fromEnv, name: env.KEEL_REMOTE_QUEUE_NAME?.trim() || undefined, from: envLabel }
    : typeof queue === "string"
      ? { url: queue, name: undefined, from: `agents.remote.queue in ${settings?.from ?? "settings"}` }
      : queue
        ? { url: queue.url, name: queue.name, from: `agents.remote.queue in ${settings?.from ?? "settings"}` }
        : undefined;
  if (!given)
    return {
      ok: false,
      configured: false,
      problem:
        'Remote agents need a job queue: set agents.remote.queue in settings (a Redis URL, e.g. "redis://host:6379") or KEEL_REMOTE_QUEUE, and run `keel worker` on the machines that take the jobs.',
    };
  const url = parseRedisUrl(given.url);
  if ("problem" in url) return { ok: false, configured: true, problem: `${given.from}: ${url.problem}.` };
  const name = given.name ?? DEFAULT_QUEUE_NAME;
  if (!QUEUE_NAME.test(name))
    return {
      ok: false,
      configured: true,
      problem: `${given.from}: the queue name "${name}" may hold only letters, digits, _ . and - (at most 64).`,
    };
  return {
    ok: true,
    config: {
      ...url,
      name,
      from: given.from,
      claimTimeoutMs: (settings?.claimTimeoutSeconds ?? DEFAULT_CLAIM_TIMEOUT_MS / 1000) * 1000,
      gitRemote: settings?.gitRemote ?? DEFAULT_GIT_REMOTE,
    },
  };
}
