// The telemetry spool: each decision event is a small file written before the decision is handed on, so a
// `keel hook` process can exit at once and lose nothing; the flusher (flusher.ts) exports and removes the
// files. Layout, all private to the user (folders 0700, files 0600):
//   ~/.keel/telemetry/<destination key>/destination.json   where these events go (the OTEL_* values)
//   ~/.keel/telemetry/<destination key>/<ms>-<pid>-<seq>-<rand>.json   one event each
// Bounds, kept by each flush: at most MAX_EVENTS events per destination (the oldest dropped), events
// older than MAX_AGE_MS dropped, at most MAX_DESTINATIONS folders; an event's text at most MAX_EVENT_BYTES.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { keelUserDir } from "../settings/locations.ts";
import { randomBytes } from "../tool/lazyCrypto.ts";

export const MAX_EVENTS = 5_000;
export const MAX_EVENT_BYTES = 8 * 1024;
export const MAX_AGE_MS = 7 * 24 * 60 * 60_000;
export const MAX_DESTINATIONS = 8;

/** What the flusher needs to export one event: its time, the log attributes, the counter's attributes. */
export interface SpooledEvent {
  v: 1;
  /** The decision's time (ISO). */
  time: string;
  attributes: Record<string, string | number | boolean>;
  counter: Record<string, string>;
  /** Signals already exported (a retry sends only the rest). */
  sent?: Array<"logs" | "metrics">;
}

/** `<ms>-<pid>-<sequence in this process>-<random>.json`: sorted, the order a process wrote them in. */
const EVENT_FILE = /^\d{13}-\d+-\d{8}-[0-9a-f]{8}\.json$/;
let sequence = 0;

export function spoolRoot(env: NodeJS.ProcessEnv): string {
  return join(keelUserDir(env), "telemetry");
}

/**
 * The folder name of a destination: FNV-1a (64 bits) of its sorted values. It only tells a handful of
 * destinations apart, so loading node:crypto on the decision path (~6-10 ms) would buy nothing.
 */
export function destinationKey(destination: Record<string, string>): string {
  const sorted = Object.keys(destination)
    .sort()
    .map((name) => [name, destination[name]]);
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(JSON.stringify(sorted))) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, "0");
}

function privateDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  // A folder made earlier, or by a umask that ignored the mode, is made private too.
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o700);
}

/** Writes a file so that it appears whole or not at all, readable by the user alone. */
function writePrivate(path: string, text: string): void {
  const temporary = join(path, "..", `.${randomBytes(4).toString("hex")}.tmp`);
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, path);
}

/** Appends one event to the spool of its destination. Throws on a file system error (the caller reports it). */
export function spoolEvent(root: string, destination: Record<string, string>, event: SpooledEvent): string {
  const dir = join(root, destinationKey(destination));
  sequence = (sequence + 1) % 100_000_000;
  const name = `${Date.now()}-${process.pid}-${String(sequence).padStart(8, "0")}-${randomBytes(4).toString("hex")}.json`;
  const text = boundedText(event);
  for (let attempt = 0; ; attempt++) {
    try {
      // A stat, not a listing: the decision path never pays for how full the spool is.
      if (!existsSync(join(dir, "destination.json"))) throw enoent();
      writePrivate(join(dir, name), text);
      return join(dir, name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || attempt >= 3) throw error;
    }
    // A new destination, or its empty folder was just pruned by a flush: made (again), then tried again.
    try {
      privateDir(root);
      privateDir(dir);
      writePrivate(join(dir, "destination.json"), JSON.stringify(destination));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || attempt >= 3) throw error;
    }
  }
}

function enoent(): NodeJS.ErrnoException {
  const error = new Error("no destination") as NodeJS.ErrnoException;
  error.code = "ENOENT";
  return error;
}

/** An event over MAX_EVENT_BYTES loses its longest attribute values, marked as cut. */
function boundedText(event: SpooledEvent): string {
  let text = JSON.stringify(event);
  if (Buffer.byteLength(text) <= MAX_EVENT_BYTES) return text;
  const attributes = { ...event.attributes };
  for (const [name, value] of Object.entries(attributes))
    if (typeof value === "string" && value.length > 512) attributes[name] = `${value.slice(0, 512)}… [cut]`;
  text = JSON.stringify({ ...event, attributes });
  return Buffer.byteLength(text) <= MAX_EVENT_BYTES ? text : JSON.stringify({ ...event, attributes: {} });
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {}
}

export interface SpoolBatch {
  dir: string;
  destination: Record<string, string>;
  files: string[];
  events: SpooledEvent[];
}

/** The destination folders, each with up to `limit` of its oldest events; old and unreadable ones removed. */
export function readSpool(root: string, limit: number, now = Date.now()): SpoolBatch[] {
  let folders: string[];
  try {
    folders = readdirSync(root).filter((name) => /^[0-9a-f]{16}$/.test(name));
  } catch {
    return [];
  }
  const batches: SpoolBatch[] = [];
  for (const folder of folders) {
    const dir = join(root, folder);
    let destination: Record<string, string>;
    let names: string[];
    try {
      destination = JSON.parse(readFileSync(join(dir, "destination.json"), "utf8")) as Record<string, string>;
      names = readdirSync(dir)
        .filter((name) => EVENT_FILE.test(name))
        .sort();
    } catch {
      continue;
    }
    const fresh = names.filter((name) => {
      if (now - Number(name.slice(0, 13)) <= MAX_AGE_MS) return true;
      removeQuietly(join(dir, name));
      return false;
    });
    // The bound is kept here, by the sender, so that writing an event never lists the folder.
    for (const old of fresh.splice(0, Math.max(0, fresh.length - MAX_EVENTS))) removeQuietly(join(dir, old));
    const files: string[] = [];
    const events: SpooledEvent[] = [];
    for (const name of fresh.slice(0, limit)) {
      try {
        events.push(JSON.parse(readFileSync(join(dir, name), "utf8")) as SpooledEvent);
        files.push(join(dir, name));
      } catch {
        // A file another flusher took meanwhile, or one that cannot be read: not ours to send.
      }
    }
    batches.push({ dir, destination, files, events });
  }
  return batches;
}

/** Removes exported events; an event sent for one signal only keeps the rest to send. */
export function settleEvents(
  files: readonly string[],
  events: readonly SpooledEvent[],
  sent: ReadonlySet<"logs" | "metrics">,
  wanted: ReadonlySet<"logs" | "metrics">,
): void {
  files.forEach((file, index) => {
    const event = events[index] as SpooledEvent;
    const done = new Set([...(event.sent ?? []), ...sent]);
    if ([...wanted].every((signal) => done.has(signal))) removeQuietly(file);
    else if (sent.size > 0) {
      try {
        writePrivate(file, JSON.stringify({ ...event, sent: [...done] }));
      } catch {}
    }
  });
}

/**
 * Destination folders with no events left are removed, and the oldest beyond MAX_DESTINATIONS (events
 * and all). An empty one goes without a race with a writer: its destination.json first, then the folder
 * only if still empty (rmdir); a writer that finds no destination.json writes it again (spoolEvent).
 */
export function pruneDestinations(root: string): void {
  let folders: Array<{ dir: string; events: number; mtime: number }>;
  try {
    folders = readdirSync(root)
      .filter((name) => /^[0-9a-f]{16}$/.test(name))
      .map((name) => {
        const dir = join(root, name);
        const events = readdirSync(dir).filter((file) => EVENT_FILE.test(file)).length;
        return { dir, events, mtime: statSync(dir).mtimeMs };
      });
  } catch {
    return;
  }
  folders.sort((a, b) => b.mtime - a.mtime);
  folders.forEach((folder, index) => {
    if (index >= MAX_DESTINATIONS) rmSync(folder.dir, { recursive: true, force: true });
    else {
      removeAbandonedWrites(folder.dir);
      if (folder.events === 0) removeIfEmpty(folder.dir);
    }
  });
}

/** A writer that died between writing and renaming left a `.tmp` file: gone after a minute. */
function removeAbandonedWrites(dir: string): void {
  try {
    for (const name of readdirSync(dir).filter((entry) => entry.endsWith(".tmp"))) {
      const path = join(dir, name);
      if (Date.now() - statSync(path).mtimeMs > 60_000) removeQuietly(path);
    }
  } catch {}
}

function removeIfEmpty(dir: string): void {
  const file = join(dir, "destination.json");
  let destination: string;
  try {
    destination = readFileSync(file, "utf8");
    unlinkSync(file);
  } catch {
    return;
  }
  try {
    rmdirSync(dir);
  } catch {
    // Not empty (a writer came meanwhile): its destination stays.
    try {
      writePrivate(file, destination);
    } catch {}
  }
}

/** Events waiting in the spool, for `keel telemetry`. */
export function spoolCount(root: string): { events: number; destinations: number } {
  let events = 0;
  let destinations = 0;
  try {
    for (const name of readdirSync(root).filter((entry) => /^[0-9a-f]{16}$/.test(entry))) {
      destinations++;
      events += readdirSync(join(root, name)).filter((file) => EVENT_FILE.test(file)).length;
    }
  } catch {}
  return { events, destinations };
}
