// `keel audit --summary`: per agent and tool, how many calls were allowed, denied and left to a person.
// For another agent's hook that is the prompts Keel saved (allowed), the refusals it added (denied) and
// the calls it left to the agent's own rules and prompts. A call an agent sends twice (PreToolUse, then
// PermissionRequest when its dialog is about to show) counts once, with the later answer.
import type { AuditRecord } from "../pipeline/services.ts";
import { toolLabel } from "./readAudit.ts";

/** Records of `keel hook` carry the agent and its hook event; Keel's own records carry neither. */
export type SummarizedRecord = AuditRecord & { agent?: string; hookEvent?: string; savedPrompt?: boolean };

export interface SummaryRow {
  /** `keel` for Keel's own sessions, else the agent (`claude-code`, ...). */
  agent: string;
  tool: string;
  calls: number;
  allowed: number;
  denied: number;
  /** Keel asked a person (its own sessions), or left the call to the agent's rules and prompts. */
  leftToPerson: number;
  /** Keel had no opinion (a tool it does not judge) or the call failed before a decision. */
  noOpinion: number;
  /** Allowed calls the agent would have asked the person about (keel hook only; see guard/savedPrompt.ts). */
  promptsSaved: number;
}

/** Events an agent sends only when it is about to ask the person about a call it already announced. */
const FOLLOW_UP_EVENTS = new Set(["PermissionRequest"]);

function callKey(record: SummarizedRecord): string {
  return [record.agent ?? "keel", record.sessionId, record.tool, record.inputSummary].join("\u0000");
}

/** One record per call: a follow-up event replaces the announcement it follows. */
export function collapseFollowUps(records: readonly SummarizedRecord[]): SummarizedRecord[] {
  const result: Array<SummarizedRecord | undefined> = [];
  const announced = new Map<string, number>();
  for (const record of records) {
    // A classifier verdict that came late adds to its call's record; it is no call of its own.
    if (record.classifierVerdictFor) continue;
    const key = callKey(record);
    const earlier = announced.get(key);
    if (record.hookEvent && FOLLOW_UP_EVENTS.has(record.hookEvent) && earlier !== undefined) {
      result[earlier] = record;
      announced.delete(key);
      continue;
    }
    if (record.hookEvent && !FOLLOW_UP_EVENTS.has(record.hookEvent)) announced.set(key, result.length);
    result.push(record);
  }
  return result.filter((record): record is SummarizedRecord => record !== undefined);
}

function outcomeOf(record: SummarizedRecord): "allowed" | "denied" | "leftToPerson" | "noOpinion" {
  const byPerson = (record.decisionReason as { type?: string } | undefined)?.type === "user";
  if (byPerson || record.behavior === "ask") return "leftToPerson";
  if (record.behavior === "allow") return "allowed";
  if (record.behavior === "deny") return "denied";
  return "noOpinion";
}

export function summarizeAudit(records: readonly SummarizedRecord[]): SummaryRow[] {
  const rows = new Map<string, SummaryRow>();
  for (const record of collapseFollowUps(records)) {
    const agent = record.agent ?? "keel";
    const tool = toolLabel(record);
    const key = `${agent}\u0000${tool}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        agent,
        tool,
        calls: 0,
        allowed: 0,
        denied: 0,
        leftToPerson: 0,
        noOpinion: 0,
        promptsSaved: 0,
      };
      rows.set(key, row);
    }
    row.calls++;
    row[outcomeOf(record)]++;
    if (record.savedPrompt === true && record.behavior === "allow") row.promptsSaved++;
  }
  return [...rows.values()].sort((a, b) =>
    a.agent === b.agent ? (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0) : a.agent < b.agent ? -1 : 1,
  );
}

/** A table for people: one section per agent, a total line each. */
export function formatAuditSummary(rows: readonly SummaryRow[]): string {
  if (rows.length === 0) return "No audit records.\n";
  const header = ["tool", "calls", "allowed", "denied", "left to person", "no opinion"];
  const lines: string[] = [];
  for (const agent of [...new Set(rows.map((row) => row.agent))]) {
    const own = rows.filter((row) => row.agent === agent);
    const total: SummaryRow = {
      agent,
      tool: "all tools",
      calls: 0,
      allowed: 0,
      denied: 0,
      leftToPerson: 0,
      noOpinion: 0,
      promptsSaved: 0,
    };
    for (const row of own)
      for (const count of [
        "calls",
        "allowed",
        "denied",
        "leftToPerson",
        "noOpinion",
        "promptsSaved",
      ] as const)
        total[count] += row[count];
    const cells = [...own, total].map((row) => [
      row.tool,
      String(row.calls),
      String(row.allowed),
      String(row.denied),
      String(row.leftToPerson),
      String(row.noOpinion),
    ]);
    const widths = header.map((title, i) =>
      Math.max(title.length, ...cells.map((cell) => (cell[i] ?? "").length)),
    );
    const line = (cell: string[]) =>
      cell
        .map((text, i) => (i === 0 ? text.padEnd(widths[i] ?? 0) : text.padStart(widths[i] ?? 0)))
        .join("  ");
    lines.push(
      agent === "keel" ? "keel (its own sessions)" : `${agent} (through keel hook)`,
      `  ${line(header)}`,
    );
    for (const cell of cells) lines.push(`  ${line(cell)}`);
    if (agent !== "keel" && total.promptsSaved > 0)
      lines.push(
        `  ${total.promptsSaved} prompt(s) saved: ${agent} would have asked about those calls, and Keel proved them safe.`,
      );
    lines.push("");
  }
  return `${lines.join("\n")}`;
}
