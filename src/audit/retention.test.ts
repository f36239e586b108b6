// Which segments the retention removes: the oldest first, while the log is over its size or they are
// past its age; never the newest, never one whose successor started less than a minute ago.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { auditRetention, pruneSegments, SEALED_AFTER_MS, segmentLimit } from "./retention.ts";
import { listSegments, segmentName, segmentsForDay } from "./segments.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "keel-retention-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const NOW = Date.parse("2026-06-15T12:00:00.000Z");
const MINUTE = 60_000;
const DAY = 86_400_000;

/** Segments started `agoMs` before NOW, each `bytes` long. */
function make(segments: Array<[agoMs: number, bytes: number]>): string[] {
  return segments.map(([ago, bytes]) => {
    const name = segmentName(NOW - ago);
    writeFileSync(join(dir, name), "x".repeat(bytes));
    return name;
  });
}

const KB = 1024;

describe("pruneSegments", () => {
  const cases: Array<{
    name: string;
    segments: Array<[number, number]>;
    maxBytes: number;
    maxAgeMs: number;
    kept: number[];
  }> = [
    {
      name: "under both bounds: nothing removed",
      segments: [
        [3 * DAY, KB],
        [2 * DAY, KB],
        [DAY, KB],
      ],
      maxBytes: 10 * KB,
      maxAgeMs: 30 * DAY,
      kept: [0, 1, 2],
    },
    {
      name: "over the size: oldest removed until under it",
      segments: [
        [4 * DAY, 4 * KB],
        [3 * DAY, 4 * KB],
        [2 * DAY, 4 * KB],
        [DAY, 4 * KB],
      ],
      maxBytes: 9 * KB,
      maxAgeMs: 30 * DAY,
      kept: [2, 3],
    },
    {
      name: "past the age: a segment whose successor started before the age bound is removed",
      segments: [
        [40 * DAY, KB],
        [31 * DAY, KB],
        [29 * DAY, KB],
        [DAY, KB],
      ],
      maxBytes: 100 * KB,
      maxAgeMs: 30 * DAY,
      // The 31-day-old segment holds records up to 29 days old: it stays.
      kept: [1, 2, 3],
    },
    {
      name: "the newest is never removed, however large or old",
      segments: [
        [100 * DAY, 50 * KB],
        [90 * DAY, 50 * KB],
      ],
      maxBytes: 10 * KB,
      maxAgeMs: 30 * DAY,
      kept: [1],
    },
    {
      name: "a segment whose successor started under a minute ago is kept (a writer may still append)",
      segments: [
        [DAY, 50 * KB],
        [SEALED_AFTER_MS - 1_000, KB],
      ],
      maxBytes: 10 * KB,
      maxAgeMs: 30 * DAY,
      kept: [0, 1],
    },
    {
      name: "and one sealed over a minute ago goes",
      segments: [
        [DAY, 50 * KB],
        [2 * MINUTE, 50 * KB],
        [SEALED_AFTER_MS - 1_000, KB],
      ],
      maxBytes: 10 * KB,
      maxAgeMs: 30 * DAY,
      // The first goes; the second's successor is too young, so it stays though the log is still too large.
      kept: [1, 2],
    },
  ];
  it.each(cases)("$name", ({ segments, maxBytes, maxAgeMs, kept }) => {
    const names = make(segments);
    const removed = pruneSegments(listSegments(dir), { maxBytes, maxAgeMs }, NOW);
    expect(readdirSync(dir).sort()).toEqual(kept.map((i) => names[i]));
    expect(removed).toEqual(names.filter((_, i) => !kept.includes(i)));
  });
});

describe("retention settings", () => {
  it.each([
    [{}, 200 * 1024 * KB, 30 * DAY, 20 * 1024 * KB],
    [{ maxSizeMB: 1, maxAgeDays: 1 }, 1024 * KB, DAY, 104_857],
    [{ maxSizeMB: 0.1 }, 104_858, 30 * DAY, 64 * KB],
  ])("%j: %d bytes, %d ms, segments of %d bytes", (settings, maxBytes, maxAgeMs, segment) => {
    const retention = auditRetention(settings);
    expect(retention).toEqual({ maxBytes, maxAgeMs });
    expect(segmentLimit(retention)).toBe(segment);
  });
});

describe("segmentsForDay", () => {
  it("takes the day's segments, the one before it and the one after it", () => {
    const names = [
      "2026-06-10.jsonl",
      "2026-06-12T08-00-00.000Z.jsonl",
      "2026-06-13T00-00-01.000Z.jsonl",
      "2026-06-13T09-00-00.000Z.jsonl",
      "2026-06-14T00-00-00.500Z.jsonl",
      "2026-06-15T10-00-00.000Z.jsonl",
    ];
    for (const name of names) writeFileSync(join(dir, name), "");
    const day = (d: string) => segmentsForDay(listSegments(dir), d).map((segment) => segment.name);
    expect(day("2026-06-13")).toEqual(names.slice(1, 5));
    expect(day("2026-06-11")).toEqual(names.slice(0, 2));
    expect(day("2026-06-20")).toEqual(names.slice(5));
    expect(day("2026-06-01")).toEqual(names.slice(0, 1));
  });
});
