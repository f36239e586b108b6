// `keel audit`: the audit log of tool calls, for one session or all, as lines for people or JSON. The
// log is read a line at a time (the last N from its end), so a log of any size prints in little memory.
import { once } from "node:events";
import type { Command } from "commander";
import { auditDir } from "../../audit/jsonlSink.ts";
import {
  type AuditEntry,
  type AuditQuery,
  AuditReadStats,
  formatAuditRecord,
  lastAuditEntries,
  readAuditEntries,
} from "../../audit/readAudit.ts";
import { CliError } from "../exitCodes.ts";

interface AuditFlags {
  session?: string;
  json?: boolean;
  date?: string;
  tool?: string;
  limit?: string;
  summary?: boolean;
}

/** Output gathered into chunks of this size; each waits for stdout to drain when it is a slow pipe. */
const OUTPUT_CHUNK = 64 * 1024;
/** Records between two turns of the event loop, so Ctrl-C and SIGTERM are handled while a large log is read. */
const RECORDS_PER_TURN = 5_000;

class ChunkedOutput {
  #pending = "";
  /** A promise only when the chunk went out and stdout asked to wait. */
  write(text: string): Promise<void> | undefined {
    this.#pending += text;
    return this.#pending.length >= OUTPUT_CHUNK ? this.flush() : undefined;
  }
  async flush(): Promise<void> {
    const text = this.#pending;
    this.#pending = "";
    if (text !== "" && !process.stdout.write(text)) await once(process.stdout, "drain");
  }
}

/** Records between full collections in a long read (each a few milliseconds on a heap of ~20 MB). */
const RECORDS_PER_COLLECTION = 50_000;

/**
 * A full garbage collection, or undefined where it cannot be had. A read of every record that waits on
 * nothing (the summary) gives V8 no idle time: garbage promoted out of the young generation and freed
 * pages kept pooled grow the process by ~20 MB over its live heap (bench/audit.bench.ts); one collection
 * every RECORDS_PER_COLLECTION records gives them back.
 */
export function fullCollection(): (() => void) | undefined {
  try {
    // Loaded here, not at the top: every command's start reads this module.
    process.getBuiltinModule("node:v8").setFlagsFromString("--expose-gc");
    const gc: unknown = process.getBuiltinModule("node:vm").runInNewContext("gc");
    return typeof gc === "function" ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

/** Calls `each` for every entry asked for, oldest first, with a turn of the event loop now and then. */
async function forEachEntry(
  query: AuditQuery,
  limit: number | undefined,
  stats: AuditReadStats,
  each: (entry: AuditEntry) => void | Promise<void>,
): Promise<void> {
  const entries =
    limit === undefined ? readAuditEntries(query, stats) : lastAuditEntries(query, limit, stats);
  let count = 0;
  let collect: (() => void) | undefined;
  for (const entry of entries) {
    const pending = each(entry);
    if (pending) await pending;
    if (++count % RECORDS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    if (count % RECORDS_PER_COLLECTION === 0) {
      collect ??= fullCollection() ?? (() => {});
      collect();
    }
  }
}

export function register(program: Command): void {
  program
    .command("audit")
    .description("Show the audit log: every tool call, its decision and who made it (~/.keel/audit)")
    .option("--session <id>", "only this session")
    .option("--date <YYYY-MM-DD>", "only this day (UTC)")
    .option("--tool <name>", "only calls of this tool")
    .option("--limit <n>", "only the last n calls")
    .option("--json", "print JSON lines (one record per line)")
    .option(
      "--summary",
      "per agent and tool: calls allowed, denied and left to a person (keel hook: prompts saved)",
    )
    .action(async (options: AuditFlags) => {
      if (options.date && !/^\d{4}-\d{2}-\d{2}$/.test(options.date))
        throw new CliError(`--date takes YYYY-MM-DD, not "${options.date}"`);
      const limit = options.limit === undefined ? undefined : Number(options.limit);
      if (limit !== undefined && !(Number.isInteger(limit) && limit >= 0))
        throw new CliError(`--limit takes a whole number, not "${options.limit}"`);
      const dir = auditDir();
      const query: AuditQuery = {
        dir,
        ...(options.session ? { sessionId: options.session } : {}),
        ...(options.date ? { date: options.date } : {}),
        ...(options.tool ? { tool: options.tool } : {}),
      };
      const stats = new AuditReadStats();
      const output = new ChunkedOutput();
      if (options.summary) {
        const { AuditSummarizer, formatAuditSummary } = await import("../../audit/summary.ts");
        const summarizer = new AuditSummarizer();
        await forEachEntry(query, limit, stats, ({ record }) => summarizer.add(record));
        const rows = summarizer.rows();
        await output.write(options.json ? `${JSON.stringify(rows, null, 2)}\n` : formatAuditSummary(rows));
      } else {
        let printed = 0;
        await forEachEntry(query, limit, stats, ({ record, line }) => {
          printed++;
          return output.write(`${options.json ? line : formatAuditRecord(record)}\n`);
        });
        if (printed === 0 && !options.json)
          await output.write(
            `No audit records${options.session ? ` for session ${options.session}` : ""} in ${dir}.\n`,
          );
      }
      await output.flush();
      const skipped = stats.describe();
      if (skipped) process.stderr.write(`keel: ${skipped}\n`);
    });
}
