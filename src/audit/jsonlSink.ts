// The audit log: one JSON line per tool call, appended to the newest segment under ~/.keel/audit (see
// segments.ts), kept within the retention's size and age (retention.ts). Files are opened for append
// only and readable by the user alone; secrets are redacted before writing.
import { closeSync, fstatSync, mkdirSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { AuditRecord, AuditSink } from "../pipeline/services.ts";
import { keelUserDir } from "../settings/locations.ts";
import { errorMessage } from "../tool/errors.ts";
import { monotonicMs } from "../tool/monotonicClock.ts";
import { createRedactor, type Redactor } from "./redact.ts";
import {
  type AuditRetention,
  DEFAULT_AUDIT_RETENTION,
  pruneSegments,
  RECHECK_MS,
  segmentLimit,
} from "./retention.ts";
import { listSegments, type Segment, segmentName, utcDay } from "./segments.ts";

export function auditDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(keelUserDir(env), "audit");
}

export interface JsonlAuditSinkOptions {
  /** Default: ~/.keel/audit (KEEL_HOME honoured). */
  dir?: string;
  /** The environment whose secrets are redacted (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Told once when writing fails; the call itself never fails because of the log. */
  onError?: (message: string) => void;
  /** How much is kept (settings `audit.maxSizeMB` and `audit.maxAgeDays`; default 200 MB, 30 days). */
  retention?: AuditRetention;
  /** How often the open file is checked against the newest segment, in ms (default 1,000; tests use 0). */
  recheckMs?: number;
  /** The wall clock, for segment names and ages (tests move it). */
  now?: () => number;
}

interface OpenFile {
  segment: Segment;
  fd: number;
  /** Its size as last seen, plus what this sink wrote since. */
  bytes: number;
  /** monotonicMs() of the last check that it is still the newest segment. */
  checkedAt: number;
}

/** Where a sink keeps its open file; it outlives the sink so a collected sink's file gets closed. */
interface FileHolder {
  file: OpenFile | undefined;
}

function closeHeld(holder: FileHolder): void {
  const file = holder.file;
  holder.file = undefined;
  if (!file) return;
  try {
    closeSync(file.fd);
  } catch {
    // Already closed: nothing left to release.
  }
}

const closeWhenCollected = new FinalizationRegistry<FileHolder>(closeHeld);

function openForAppend(dir: string, path: string): number {
  try {
    return openSync(path, "a", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return openSync(path, "a", 0o600);
  }
}

export class JsonlAuditSink implements AuditSink {
  readonly dir: string;
  readonly #redact: Redactor;
  readonly #onError: (message: string) => void;
  readonly #retention: AuditRetention;
  readonly #segmentLimit: number;
  readonly #recheckMs: number;
  readonly #now: () => number;
  #failed = false;
  /** Kept open between records: opening and closing the file for each line cost more than the write. */
  readonly #held: FileHolder = { file: undefined };

  constructor(options: JsonlAuditSinkOptions = {}) {
    const env = options.env ?? process.env;
    this.dir = options.dir ?? auditDir(env);
    this.#redact = createRedactor(env);
    this.#onError = options.onError ?? ((message) => process.stderr.write(`keel: ${message}\n`));
    this.#retention = options.retention ?? DEFAULT_AUDIT_RETENTION;
    this.#segmentLimit = segmentLimit(this.#retention);
    this.#recheckMs = options.recheckMs ?? RECHECK_MS;
    this.#now = options.now ?? Date.now;
    closeWhenCollected.register(this, this.#held);
  }

  record(entry: AuditRecord): void {
    try {
      const bytes = Buffer.from(`${JSON.stringify(this.#redact(entry))}\n`);
      const file = this.#fileToAppend();
      // One synchronous write per line (O_APPEND): the line is on disk before the call's result is
      // handed on, nothing waits in memory to be lost at exit, and lines never interleave.
      let written = writeSync(file.fd, bytes);
      while (written < bytes.length) written += writeSync(file.fd, bytes, written);
      file.bytes += bytes.length;
    } catch (error) {
      this.close();
      if (this.#failed) return;
      this.#failed = true;
      this.#onError(`could not write the audit log in ${this.dir}: ${errorMessage(error)}`);
    }
  }

  /** Closes the open log file; a later record opens it again. */
  close(): void {
    closeHeld(this.#held);
  }

  /**
   * The open segment while it is the newest, of today and not full, checked at most every recheckMs;
   * else the newest segment, or a new one (after which old segments are pruned).
   */
  #fileToAppend(): OpenFile {
    const held = this.#held.file;
    const now = this.#now();
    const checkedNow = monotonicMs();
    const fresh = (segment: Segment, bytes: number) =>
      bytes < this.#segmentLimit && utcDay(segment.startMs) === utcDay(now);
    if (held && checkedNow - held.checkedAt < this.#recheckMs && fresh(held.segment, held.bytes)) return held;
    const segments = listSegments(this.dir);
    const newest = segments.at(-1);
    if (held && newest?.name === held.segment.name) {
      held.bytes = fstatSync(held.fd).size;
      held.checkedAt = checkedNow;
      if (fresh(held.segment, held.bytes)) return held;
    }
    this.close();
    if (newest) {
      const fd = openForAppend(this.dir, newest.path);
      const bytes = fstatSync(fd).size;
      if (fresh(newest, bytes)) return this.#hold({ segment: newest, fd, bytes, checkedAt: checkedNow });
      closeSync(fd);
    }
    // Named after now, and after the newest, so names keep the order segments were started in.
    const startMs = Math.max(now, (newest?.startMs ?? 0) + 1);
    const segment = { name: segmentName(startMs), path: join(this.dir, segmentName(startMs)), startMs };
    const fd = openForAppend(this.dir, segment.path);
    const file = this.#hold({ segment, fd, bytes: fstatSync(fd).size, checkedAt: checkedNow });
    pruneSegments([...segments, segment], this.#retention, now);
    return file;
  }

  #hold(file: OpenFile): OpenFile {
    this.#held.file = file;
    return file;
  }
}
