// How much of the audit log is kept: at most `maxBytes` in all, nothing older than `maxAgeMs`. Whole
// segments are removed, oldest first, by the writer that has just started a new one. Several processes
// write at once (hooks of several agents), without a lock, so a segment is removed only when no writer
// can still be appending to it: writers append only to the newest segment they saw at most RECHECK_MS
// ago, so a segment whose successor was started more than SEALED_AFTER_MS ago gets no more lines.
import { unlinkSync } from "node:fs";
import { type Segment, segmentBytes } from "./segments.ts";

export interface AuditRetention {
  /** The whole log's size bound, in bytes (settings `audit.maxSizeMB`). */
  maxBytes: number;
  /** Records older than this are removed, in ms (settings `audit.maxAgeDays`). */
  maxAgeMs: number;
}

const MB = 1024 * 1024;
const DAY_MS = 86_400_000;

export const DEFAULT_AUDIT_MAX_SIZE_MB = 200;
export const DEFAULT_AUDIT_MAX_AGE_DAYS = 30;

export const DEFAULT_AUDIT_RETENTION: AuditRetention = Object.freeze({
  maxBytes: DEFAULT_AUDIT_MAX_SIZE_MB * MB,
  maxAgeMs: DEFAULT_AUDIT_MAX_AGE_DAYS * DAY_MS,
});

/** The retention the settings' `audit.maxSizeMB` and `audit.maxAgeDays` ask for, defaults for the rest. */
export function auditRetention(settings: { maxSizeMB?: number; maxAgeDays?: number } = {}): AuditRetention {
  return {
    maxBytes: Math.round((settings.maxSizeMB ?? DEFAULT_AUDIT_MAX_SIZE_MB) * MB),
    maxAgeMs: Math.round((settings.maxAgeDays ?? DEFAULT_AUDIT_MAX_AGE_DAYS) * DAY_MS),
  };
}

/** A segment is full at a tenth of the whole bound: the log overshoots it by at most one segment. */
export function segmentLimit(retention: AuditRetention): number {
  return Math.max(64 * 1024, Math.floor(retention.maxBytes / 10));
}

/** How often a writer checks that it appends to the newest segment (and starts the next when full). */
export const RECHECK_MS = 1_000;

/** A segment followed by one started this long ago gets no more lines (60 times RECHECK_MS). */
export const SEALED_AFTER_MS = 60_000;

/**
 * Removes the oldest segments while the log is over its size or they are past its age; never the newest,
 * never one a writer may still append to. Returns the names removed.
 */
export function pruneSegments(
  segments: readonly Segment[],
  retention: AuditRetention,
  now: number = Date.now(),
): string[] {
  const sizes = segments.map(segmentBytes);
  let total = sizes.reduce((sum, size) => sum + size, 0);
  const removed: string[] = [];
  for (let i = 0; i < segments.length - 1; i++) {
    const segment = segments[i]!;
    // Its last line was written before the next segment started (plus a recheck): that is its age.
    const nextStart = segments[i + 1]!.startMs;
    if (nextStart > now - SEALED_AFTER_MS) break;
    const tooOld = nextStart < now - retention.maxAgeMs;
    if (!tooOld && total <= retention.maxBytes) break;
    try {
      unlinkSync(segment.path);
      removed.push(segment.name);
    } catch {
      // Another writer removed it first.
    }
    total -= sizes[i] ?? 0;
  }
  return removed;
}
