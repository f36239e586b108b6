// The agent's saved results (sessions that can be resumed) are kept while the session is active within
// the age, and removed past it: a table of sessions on real folders, ages set on their files.
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SAVED_RESULTS_MAX_AGE_DAYS, sweepExpiredResults } from "./savedResults.ts";

const DAY = 24 * 60 * 60 * 1000;
const base = mkdtempSync(join(tmpdir(), "keel-saved-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

interface Row {
  what: string;
  /** Days since the results folder last changed. */
  resultsAge: number;
  /** Days since the transcript last changed; undefined: no transcript. */
  transcriptAge?: number;
  keep?: boolean;
  /** Something other than results kept in the session folder. */
  otherFile?: boolean;
  removed: boolean;
}

const ROWS: Row[] = [
  {
    what: "inactive past the age",
    resultsAge: SAVED_RESULTS_MAX_AGE_DAYS + 1,
    transcriptAge: SAVED_RESULTS_MAX_AGE_DAYS + 1,
    removed: true,
  },
  {
    what: "inactive just under the age",
    resultsAge: SAVED_RESULTS_MAX_AGE_DAYS - 1,
    transcriptAge: SAVED_RESULTS_MAX_AGE_DAYS - 1,
    removed: false,
  },
  {
    what: "old results, transcript written today (resumed lately)",
    resultsAge: 90,
    transcriptAge: 0,
    removed: false,
  },
  { what: "old results, no transcript left", resultsAge: 90, removed: true },
  {
    what: "the session starting now, however old",
    resultsAge: 90,
    transcriptAge: 90,
    keep: true,
    removed: false,
  },
  {
    what: "old results beside another file: results go, the file stays",
    resultsAge: 90,
    transcriptAge: 90,
    otherFile: true,
    removed: true,
  },
];

describe("sweepExpiredResults", () => {
  it.each(ROWS)("$what: removed $removed", (row) => {
    const dir = mkdtempSync(join(base, "project-"));
    const id = "0b6c9f7e-session";
    const results = join(dir, id, "tool-results");
    mkdirSync(results, { recursive: true });
    writeFileSync(join(results, "toolu_1.txt"), "API_KEY=...");
    if (row.otherFile) writeFileSync(join(dir, id, "notes.md"), "kept");
    const now = Date.now();
    const at = (days: number) => new Date(now - days * DAY);
    utimesSync(results, at(row.resultsAge), at(row.resultsAge));
    if (row.transcriptAge !== undefined) {
      const transcript = join(dir, `${id}.jsonl`);
      writeFileSync(transcript, "{}\n");
      utimesSync(transcript, at(row.transcriptAge), at(row.transcriptAge));
    }
    const removed = sweepExpiredResults(dir, { ...(row.keep ? { keep: id } : {}), now });
    expect(removed).toEqual(row.removed ? [results] : []);
    expect(existsSync(results)).toBe(!row.removed);
    if (row.otherFile) expect(existsSync(join(dir, id, "notes.md"))).toBe(true);
    else if (row.removed) expect(existsSync(join(dir, id))).toBe(false);
  });
});
