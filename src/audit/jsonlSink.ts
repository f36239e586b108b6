// The audit log: one JSON line per tool call, appended to ~/.keel/audit/<UTC date>.jsonl. Files are
// opened for append only and readable by the user alone; secrets are redacted before writing.
import { closeSync, fstatSync, mkdirSync, openSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { AuditRecord, AuditSink } from "../pipeline/services.ts";
import { keelUserDir } from "../settings/locations.ts";
import { errorMessage } from "../tool/errors.ts";
import { createRedactor, type Redactor } from "./redact.ts";

export function auditDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(keelUserDir(env), "audit");
}

/** `2026-11-03T10:00:00.000Z` and the like: the UTC date is the first ten characters. */
const UTC_ISO_TIME = /^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/;

export function auditFileFor(dir: string, time: string): string {
  if (UTC_ISO_TIME.test(time)) return join(dir, `${time.slice(0, 10)}.jsonl`);
  const date = Number.isNaN(Date.parse(time)) ? new Date() : new Date(time);
  return join(dir, `${date.toISOString().slice(0, 10)}.jsonl`);
}

/** How often an open log file is checked against its path (deleted or rotated away: reopen). */
const RECHECK_MS = 1_000;

export interface JsonlAuditSinkOptions {
  /** Default: ~/.keel/audit (KEEL_HOME honoured). */
  dir?: string;
  /** The environment whose secrets are redacted (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Told once when writing fails; the call itself never fails because of the log. */
  onError?: (message: string) => void;
  /** How often the open file is checked against its path, in ms (default 1,000; tests use 0). */
  recheckMs?: number;
}

interface OpenFile {
  path: string;
  fd: number;
  dev: number;
  ino: number;
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
  readonly #recheckMs: number;
  #failed = false;
  /** Kept open between records: opening and closing the file for each line cost more than the write. */
  readonly #held: FileHolder = { file: undefined };

  constructor(options: JsonlAuditSinkOptions = {}) {
    const env = options.env ?? process.env;
    this.dir = options.dir ?? auditDir(env);
    this.#redact = createRedactor(env);
    this.#onError = options.onError ?? ((message) => process.stderr.write(`keel: ${message}\n`));
    this.#recheckMs = options.recheckMs ?? RECHECK_MS;
    closeWhenCollected.register(this, this.#held);
  }

  record(entry: AuditRecord): void {
    try {
      const bytes = Buffer.from(`${JSON.stringify(this.#redact(entry))}\n`);
      const fd = this.#fdFor(auditFileFor(this.dir, entry.time));
      // One synchronous write per line (O_APPEND): the line is on disk before the call's result is
      // handed on, nothing waits in memory to be lost at exit, and lines never interleave.
      let written = writeSync(fd, bytes);
      while (written < bytes.length) written += writeSync(fd, bytes, written);
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

  /** The open file for `path`: reopened on a new date, or when the file was deleted or rotated away. */
  #fdFor(path: string): number {
    const file = this.#held.file;
    const now = Date.now();
    if (file && file.path === path && (now - file.checkedAt < this.#recheckMs || stillAt(file, now)))
      return file.fd;
    this.close();
    const fd = openForAppend(this.dir, path);
    const stats = fstatSync(fd);
    this.#held.file = { path, fd, dev: stats.dev, ino: stats.ino, checkedAt: now };
    return fd;
  }
}

/** True while the path still names the open file. */
function stillAt(file: OpenFile, now: number): boolean {
  file.checkedAt = now;
  try {
    const stats = statSync(file.path);
    return stats.ino === file.ino && stats.dev === file.dev;
  } catch {
    return false;
  }
}
