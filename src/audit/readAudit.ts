// Reading the audit log back for `keel audit`: every day's file in order, filtered; a line that does
// not parse is counted and skipped, never fatal.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AuditRecord } from "../pipeline/services.ts";

export interface AuditQuery {
  dir: string;
  sessionId?: string;
  /** Only this UTC day (YYYY-MM-DD). */
  date?: string;
  tool?: string;
  /** The last N records after filtering. */
  limit?: number;
}

export interface AuditReadResult {
  records: AuditRecord[];
  skippedLines: number;
  files: string[];
}

export function readAuditRecords(query: AuditQuery): AuditReadResult {
  let names: string[];
  try {
    names = readdirSync(query.dir).filter((name) => /^\d{4}-\d{2}-\d{2}\.jsonl$/.test(name));
  } catch {
    return { records: [], skippedLines: 0, files: [] };
  }
  names.sort();
  if (query.date) names = names.filter((name) => name === `${query.date}.jsonl`);
  const records: AuditRecord[] = [];
  let skippedLines = 0;
  for (const name of names) {
    for (const line of readFileSync(join(query.dir, name), "utf8").split("\n")) {
      if (line.trim() === "") continue;
      let record: AuditRecord;
      try {
        record = JSON.parse(line) as AuditRecord;
      } catch {
        skippedLines++;
        continue;
      }
      if (query.sessionId && record.sessionId !== query.sessionId) continue;
      if (query.tool && !toolNamesOf(record).includes(query.tool)) continue;
      records.push(record);
    }
  }
  const limited = query.limit === undefined ? records : query.limit <= 0 ? [] : records.slice(-query.limit);
  return { records: limited, skippedLines, files: names.map((name) => join(query.dir, name)) };
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
export function formatAuditRecord(record: AuditRecord): string {
  if (record.classifierVerdictFor && record.classifier)
    return `${record.time}  ${pad(record.sessionId.slice(0, 8), 8)}  ${pad(record.tool, 12)}  classifier verdict (after the decision): ${record.classifier.behavior}: ${record.classifier.reason}`;
  const outcome = record.isError ? `error${record.errorCode ? ` ${record.errorCode}` : ""}` : "ok";
  const agent = (record as AuditRecord & { agent?: string; hookEvent?: string }).agent;
  const via = agent
    ? ` (for ${agent}, ${(record as { hookEvent?: string }).hookEvent ?? "hook"})`
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
    ].join("  ") +
    `\n    input: ${record.inputSummary}${hooks}` +
    (record.classifier ? `\n    classifier: ${record.classifier.behavior}: ${record.classifier.reason}` : "")
  );
}
