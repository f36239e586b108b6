// `keel audit --summary`: per agent and tool, how many calls were allowed, denied and left to a person.
// For another agent's hook that is the prompts Keel saved (allowed), the refusals it added (denied) and
// the calls it left to the agent's own rules and prompts. A call an agent sends twice (PreToolUse, then
// PermissionRequest when its dialog is about to show) counts once, with the later answer. Records are
// counted as they are read, so a summary of any log size holds only its rows and the recent announcements.
import { toolLabel } from "./readAudit.ts";
import type { ReadAuditRecord } from "./recordSchema.ts";

/** Records of `keel hook` carry the agent and its hook event; Keel's own records carry neither. */
export type SummarizedRecord = ReadAuditRecord;

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

/**
 * Announced calls a follow-up may still answer, in two generations of this many: a follow-up finds its
 * announcement when fewer than this many others came between them (up to twice as many, it may). An
 * agent sends the follow-up right after the announcement; the bound keeps any summary within a few MB.
 */
export const ANNOUNCEMENT_GENERATION = 5_000;

/**
 * The call a record is about (agent, session, tool, input) as a 53-bit number: two 32-bit FNV-1a hashes
 * of the text. Held for thousands of records, a number leaves next to nothing for the garbage collector,
 * where the text (hundreds of bytes) would pile up; two different calls share one in about 1 in 2^53.
 */
function callKey(record: SummarizedRecord): number {
  let low = 0x811c9dc5;
  let high = 0x050c5d1f;
  const parts = [record.agent ?? "keel", record.sessionId, record.tool, record.inputSummary];
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) {
      const code = part.charCodeAt(i);
      low = Math.imul(low ^ code, 0x01000193);
      high = Math.imul(high ^ code, 0x01000193) ^ (high >>> 15);
    }
    low = Math.imul(low ^ 0xffff, 0x01000193);
    high = Math.imul(high ^ 0xffff, 0x01000193);
  }
  return (high >>> 11) * 2 ** 32 + (low >>> 0);
}

const OUTCOMES = ["allowed", "denied", "leftToPerson", "noOpinion"] as const;
type Outcome = (typeof OUTCOMES)[number];

function outcomeOf(record: SummarizedRecord): Outcome {
  const byPerson = (record.decisionReason as { type?: string } | undefined)?.type === "user";
  if (byPerson || record.behavior === "ask") return "leftToPerson";
  if (record.behavior === "allow") return "allowed";
  if (record.behavior === "deny") return "denied";
  return "noOpinion";
}

function compareRows(a: SummaryRow, b: SummaryRow): number {
  if (a.agent !== b.agent) return a.agent < b.agent ? -1 : 1;
  return a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0;
}

/**
 * Counts records one at a time, as they are read: one row per agent and tool, and a follow-up event
 * moves the call it follows to the later answer (the call counts once).
 */
export class AuditSummarizer {
  readonly #rows: SummaryRow[] = [];
  readonly #rowIndex = new Map<string, number>();
  /**
   * Announced calls by call key: the row, the outcome they were counted under and whether they saved a
   * prompt, as row * 8 + outcome * 2 + saved (a number, for the reason callKey gives). When the newer generation is full it becomes the older and
   * the older is dropped: no scan, no per-entry bookkeeping.
   */
  #announced = new Map<number, number>();
  #announcedBefore = new Map<number, number>();

  add(record: SummarizedRecord): void {
    // A classifier verdict that came late adds to its call's record; it is no call of its own.
    if (record.classifierVerdictFor) return;
    const rowNumber = this.#rowFor(record);
    const row = this.#rows[rowNumber]!;
    const outcome = OUTCOMES.indexOf(outcomeOf(record));
    const saved = record.savedPrompt === true && record.behavior === "allow" ? 1 : 0;
    const followUp = record.hookEvent !== undefined && FOLLOW_UP_EVENTS.has(record.hookEvent);
    const key = record.hookEvent === undefined ? undefined : callKey(record);
    const earlier =
      key === undefined ? undefined : (this.#announced.get(key) ?? this.#announcedBefore.get(key));
    if (key !== undefined && followUp && earlier !== undefined) {
      const before = this.#rows[earlier >> 3]!;
      before[OUTCOMES[(earlier >> 1) & 3]!]--;
      before.promptsSaved -= earlier & 1;
      row[OUTCOMES[outcome]!]++;
      row.promptsSaved += saved;
      this.#announced.delete(key);
      this.#announcedBefore.delete(key);
      return;
    }
    row.calls++;
    row[OUTCOMES[outcome]!]++;
    row.promptsSaved += saved;
    if (key === undefined || followUp) return;
    this.#announcedBefore.delete(key);
    this.#announced.set(key, rowNumber * 8 + outcome * 2 + saved);
    if (this.#announced.size >= ANNOUNCEMENT_GENERATION) {
      this.#announcedBefore = this.#announced;
      this.#announced = new Map();
    }
  }

  rows(): SummaryRow[] {
    return this.#rows.map((row) => ({ ...row })).sort(compareRows);
  }

  #rowFor(record: SummarizedRecord): number {
    const agent = record.agent ?? "keel";
    const tool = toolLabel(record);
    const key = `${agent}\u0000${tool}`;
    let index = this.#rowIndex.get(key);
    if (index === undefined) {
      index = this.#rows.length;
      this.#rows.push({
        agent,
        tool,
        calls: 0,
        allowed: 0,
        denied: 0,
        leftToPerson: 0,
        noOpinion: 0,
        promptsSaved: 0,
      });
      this.#rowIndex.set(key, index);
    }
    return index;
  }
}

export function summarizeAudit(records: Iterable<SummarizedRecord>): SummaryRow[] {
  const summarizer = new AuditSummarizer();
  for (const record of records) summarizer.add(record);
  return summarizer.rows();
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
