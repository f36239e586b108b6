// Reading the audit log back for `keel audit`, one line at a time: forward over every segment (the
// listing and the summary), or backward from the newest for the last N records, so neither holds more
// than a chunk, a line and what it returns. A line that is not JSON, or JSON that is not an audit record,
// is counted and skipped, never fatal.
import type { AuditRecord } from "../pipeline/services.ts";
import { type LineReadOptions, linesBackward, linesForward } from "./lines.ts";
import { checkAuditLine, type ReadAuditRecord } from "./recordSchema.ts";
import { listSegments, type Segment, segmentsForDay } from "./segments.ts";

export type { ReadAuditRecord } from "./recordSchema.ts";

export interface AuditQuery {
  dir: string;
  sessionId?: string;
  /** Only this UTC day (YYYY-MM-DD). */
  date?: string;
  tool?: string;
}

/** What was skipped while reading, for the person to be told. */
export class AuditReadStats {
  /** Lines that are not JSON (torn by a crash, or too long). */
  unreadableLines = 0;
  /** JSON lines that are not audit records (a field of the wrong type, a missing field). */
  mismatchedRecords = 0;
  /** Where the first mismatched record was and what is wrong with it. */
  firstMismatch: string | undefined;
  readonly files: string[] = [];

  /** One line for stderr, or undefined when nothing was skipped. */
  describe(): string | undefined {
    const parts: string[] = [];
    if (this.unreadableLines > 0) parts.push(`${this.unreadableLines} unreadable line(s)`);
    if (this.mismatchedRecords > 0)
      parts.push(
        `${this.mismatchedRecords} record(s) that do not match the audit record format (first: ${this.firstMismatch})`,
      );
    return parts.length === 0 ? undefined : `${parts.join(" and ")} in the audit log were skipped`;
  }
}

function utcDayOf(time: string): string | undefined {
  if (/^\d{4}-\d{2}-\d{2}T/.test(time) && time.endsWith("Z")) return time.slice(0, 10);
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString().slice(0, 10);
}

function matches(record: AuditRecord, query: AuditQuery): boolean {
  if (query.sessionId && record.sessionId !== query.sessionId) return false;
  if (query.tool && !toolNamesOf(record).includes(query.tool)) return false;
  if (query.date && utcDayOf(record.time) !== query.date) return false;
  return true;
}

function segmentsOf(query: AuditQuery): Segment[] {
  const segments = listSegments(query.dir);
  return query.date ? segmentsForDay(segments, query.date) : segments;
}

/** A record and its line as stored (`keel audit --json` prints the line itself). */
export interface AuditEntry {
  record: ReadAuditRecord;
  line: string;
}

function* entriesOf(
  lines: Iterable<string | undefined>,
  file: string,
  query: AuditQuery,
  stats: AuditReadStats,
): Generator<AuditEntry> {
  for (const line of lines) {
    if (line === undefined) {
      stats.unreadableLines++;
      continue;
    }
    if (line.trim() === "") continue;
    const checked = checkAuditLine(line);
    if ("problem" in checked) {
      if (checked.problem === "not JSON") stats.unreadableLines++;
      else {
        stats.mismatchedRecords++;
        stats.firstMismatch ??= `${file}: ${checked.problem}`;
      }
      continue;
    }
    if (matches(checked.record, query)) yield { record: checked.record, line };
  }
}

/** Every matching entry, oldest first, read as it is iterated. */
export function* readAuditEntries(
  query: AuditQuery,
  stats: AuditReadStats = new AuditReadStats(),
  options: LineReadOptions = {},
): Generator<AuditEntry> {
  for (const segment of segmentsOf(query)) {
    stats.files.push(segment.path);
    yield* entriesOf(linesForward(segment.path, options), segment.path, query, stats);
  }
}

/** The last `limit` matching entries, oldest first, read from the end of the newest segment backwards. */
export function lastAuditEntries(
  query: AuditQuery,
  limit: number,
  stats: AuditReadStats = new AuditReadStats(),
  options: LineReadOptions = {},
): AuditEntry[] {
  const newestFirst: AuditEntry[] = [];
  if (limit <= 0) return newestFirst;
  const segments = segmentsOf(query);
  for (let i = segments.length - 1; i >= 0 && newestFirst.length < limit; i--) {
    const segment = segments[i]!;
    stats.files.push(segment.path);
    for (const entry of entriesOf(linesBackward(segment.path, options), segment.path, query, stats)) {
      newestFirst.push(entry);
      if (newestFirst.length === limit) break;
    }
  }
  return newestFirst.reverse();
}

/** Every matching record, oldest first, read as it is iterated. */
export function* readAuditRecords(
  query: AuditQuery,
  stats?: AuditReadStats,
  options?: LineReadOptions,
): Generator<ReadAuditRecord> {
  for (const entry of readAuditEntries(query, stats, options)) yield entry.record;
}

/** The last `limit` matching records, oldest first. */
export function lastAuditRecords(
  query: AuditQuery,
  limit: number,
  stats?: AuditReadStats,
  options?: LineReadOptions,
): ReadAuditRecord[] {
  return lastAuditEntries(query, limit, stats, options).map((entry) => entry.record);
}

/** Another agent's call carries the Keel tools it was judged as (Gemini's run_shell_command: Bash). */
function keelToolsOf(record: AuditRecord): string[] {
  const names = (record as { keelTools?: unknown }).keelTools;
  return Array.isArray(names) ? names.filter((name): name is string => typeof name === "string") : [];
}

/** Every name a record answers to: the agent's own, then Keel's. */
export function toolNamesOf(record: AuditRecord): string[] {
  return [record.tool, ...keelToolsOf(record)];
}

/** The tool as people read it: the agent's name, with Keel's beside it when they differ. */
export function toolLabel(record: AuditRecord): string {
  const keel = keelToolsOf(record);
  return keel.length > 0 ? `${record.tool} (${keel.join(", ")})` : record.tool;
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + " ".repeat(width - text.length);
}

/** One line per call, for people. */
export function formatAuditRecord(record: ReadAuditRecord): string {
  if (record.classifierVerdictFor && record.classifier)
    return `${record.time}  ${pad(record.sessionId.slice(0, 8), 8)}  ${pad(record.tool, 12)}  classifier verdict (after the decision): ${record.classifier.behavior}: ${record.classifier.reason}`;
  const outcome = record.isError ? `error${record.errorCode ? ` ${record.errorCode}` : ""}` : "ok";
  const via = record.agent
    ? ` (for ${record.agent}, ${record.hookEvent ?? "hook"})`
    : record.worker
      ? ` (on worker ${record.worker}, remote agent ${record.agentId ?? "?"})`
      : "";
  const hooks = record.hooks.length
    ? ` hooks: ${record.hooks.map((hook) => `${hook.event} ${hook.outcome}`).join(", ")}`
    : "";
  return (
    [
      record.time,
      pad(record.sessionId.slice(0, 8), 8),
      pad(toolLabel(record), 12),
      pad(record.behavior, 5),
      `by ${record.decidedBy}${via}`,
      `${Math.round(record.durationMs.total)}ms`,
      `${record.resultChars} chars`,
      outcome,
    ].join("  ") + `\n    input: ${record.inputSummary}${hooks}`
  );
}
