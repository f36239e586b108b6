// The saved tool results of the agent's sessions (`keel run`, the terminal UI), which can be resumed: kept
// beside the transcript (<transcripts>/<session>/tool-results) so a resumed session can still read them,
// and removed once the session has been inactive for SAVED_RESULTS_MAX_AGE_MS (neither its transcript nor
// its results folder changed), swept whenever a session starts in the same project.
import { type Dirent, readdirSync, rmdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

export const SAVED_RESULTS_MAX_AGE_DAYS = 30;
export const SAVED_RESULTS_MAX_AGE_MS = SAVED_RESULTS_MAX_AGE_DAYS * 24 * 60 * 60 * 1000;
/** Entries of the transcript folder looked at per start: a bounded cost however many sessions there are. */
const MAX_ENTRIES = 5_000;

function mtimeOrZero(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

export interface SweepResultsOptions {
  /** The session starting now (never swept, whatever its age). */
  keep?: string;
  maxAgeMs?: number;
  now?: number;
}

/** Removes the results folders of sessions inactive for longer than the age; returns the folders removed. */
export function sweepExpiredResults(transcriptDir: string, options: SweepResultsOptions = {}): string[] {
  const cutoff = (options.now ?? Date.now()) - (options.maxAgeMs ?? SAVED_RESULTS_MAX_AGE_MS);
  const removed: string[] = [];
  let entries: Dirent[];
  try {
    entries = readdirSync(transcriptDir, { withFileTypes: true });
  } catch {
    return removed;
  }
  for (const entry of entries.slice(0, MAX_ENTRIES)) {
    if (!entry.isDirectory() || entry.name === options.keep) continue;
    const sessionFolder = join(transcriptDir, entry.name);
    const results = join(sessionFolder, "tool-results");
    const resultsTime = mtimeOrZero(results);
    if (resultsTime === 0) continue;
    const lastActive = Math.max(resultsTime, mtimeOrZero(join(transcriptDir, `${entry.name}.jsonl`)));
    if (lastActive >= cutoff) continue;
    try {
      rmSync(results, { recursive: true, force: true });
      removed.push(results);
      rmdirSync(sessionFolder);
    } catch {
      // Not empty (something else kept there) or gone meanwhile: the results are what had to go.
    }
  }
  return removed;
}
