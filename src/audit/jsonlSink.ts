// The audit log: one JSON line per tool call, appended to ~/.keel/audit/<UTC date>.jsonl. Files are
// opened for append only and readable by the user alone; secrets are redacted before writing.
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { AuditRecord, AuditSink } from "../pipeline/services.ts";
import { keelUserDir } from "../settings/locations.ts";
import { errorMessage } from "../tool/errors.ts";
import { createRedactor, type Redactor } from "./redact.ts";

export function auditDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(keelUserDir(env), "audit");
}

export function auditFileFor(dir: string, time: string): string {
  const date = Number.isNaN(Date.parse(time)) ? new Date() : new Date(time);
  return join(dir, `${date.toISOString().slice(0, 10)}.jsonl`);
}

export interface JsonlAuditSinkOptions {
  /** Default: ~/.keel/audit (KEEL_HOME honoured). */
  dir?: string;
  /** The environment whose secrets are redacted (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Told once when writing fails; the call itself never fails because of the log. */
  onError?: (message: string) => void;
}

export class JsonlAuditSink implements AuditSink {
  readonly dir: string;
  readonly #redact: Redactor;
  readonly #onError: (message: string) => void;
  #failed = false;
  #dirReady = false;

  constructor(options: JsonlAuditSinkOptions = {}) {
    const env = options.env ?? process.env;
    this.dir = options.dir ?? auditDir(env);
    this.#redact = createRedactor(env);
    this.#onError = options.onError ?? ((message) => process.stderr.write(`keel: ${message}\n`));
  }

  record(entry: AuditRecord): void {
    try {
      if (!this.#dirReady) {
        mkdirSync(this.dir, { recursive: true, mode: 0o700 });
        this.#dirReady = true;
      }
      // Synchronous append: a line is on disk before the call's result is handed on, and lines never interleave.
      appendFileSync(auditFileFor(this.dir, entry.time), `${JSON.stringify(this.#redact(entry))}\n`, {
        flag: "a",
        mode: 0o600,
      });
    } catch (error) {
      if (this.#failed) return;
      this.#failed = true;
      this.#onError(`could not write the audit log in ${this.dir}: ${errorMessage(error)}`);
    }
  }
}
