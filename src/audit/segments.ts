// The audit log's files ("segments"), each named by the UTC time it was started:
// `2026-11-03T10-15-02.123Z.jsonl`. Writers append to the newest; a writer that finds it full, or from
// an earlier day, starts the next one. Files are never renamed, so a line written through a file
// descriptor opened a moment ago always lands in a file that is still there (see retention.ts).
// Logs of earlier Keel versions (`2026-11-03.jsonl`, one a day) are read as started at that day's start.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export interface Segment {
  name: string;
  path: string;
  /** When it was started (ms since the epoch), from its name. */
  startMs: number;
}

const SEGMENT_NAME = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2})-(\d{2})-(\d{2})\.(\d{3})Z)?\.jsonl$/;

/** The start time a segment's name says, or undefined for a name that is not a segment's. */
export function segmentStart(name: string): number | undefined {
  const match = SEGMENT_NAME.exec(name);
  if (!match) return undefined;
  const [, day, hours = "00", minutes = "00", seconds = "00", ms = "000"] = match;
  const time = Date.parse(`${day}T${hours}:${minutes}:${seconds}.${ms}Z`);
  return Number.isNaN(time) ? undefined : time;
}

/** The name of a segment started at `startMs`. */
export function segmentName(startMs: number): string {
  return `${new Date(startMs).toISOString().replaceAll(":", "-")}.jsonl`;
}

/** The UTC day (YYYY-MM-DD) of a time in ms. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The segments in a folder, oldest first; none when the folder does not exist. */
export function listSegments(dir: string): Segment[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const segments: Segment[] = [];
  for (const name of names) {
    const startMs = segmentStart(name);
    if (startMs !== undefined) segments.push({ name, path: join(dir, name), startMs });
  }
  // A legacy day file and a segment started at that day's first millisecond: the legacy one first.
  return segments.sort((a, b) => a.startMs - b.startMs || (a.name < b.name ? -1 : 1));
}

/** A segment's size in bytes; 0 when it is gone. */
export function segmentBytes(segment: Segment): number {
  try {
    return statSync(segment.path).size;
  } catch {
    return 0;
  }
}

/**
 * The segments that may hold records of a UTC day: those started that day, the last one started before
 * it (written until its writers noticed the new day) and the first one started after it.
 */
export function segmentsForDay(segments: readonly Segment[], day: string): Segment[] {
  const dayStart = Date.parse(`${day}T00:00:00.000Z`);
  const dayEnd = dayStart + 86_400_000;
  const firstOfDay = segments.findIndex((segment) => segment.startMs >= dayStart);
  const afterDay = segments.findIndex((segment) => segment.startMs >= dayEnd);
  const from = firstOfDay === -1 ? segments.length - 1 : Math.max(0, firstOfDay - 1);
  const to = afterDay === -1 ? segments.length : afterDay + 1;
  return segments.slice(Math.max(0, from), to);
}
