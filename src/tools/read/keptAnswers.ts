// Read's latest answers, by path: a re-read that finds exactly the bytes it found before (compared, not
// judged by size or time) gives the same answer, without decoding, hashing, splitting or numbering the
// lines again. Every read still reads the file and every check is still made; only the work that
// follows from the same bytes is not done twice. Process-wide and bounded: at most MAX_ANSWERS answers
// and MAX_WEIGHT bytes of what they hold, for files up to MAX_FILE_BYTES; the oldest go first, and an
// answer goes as soon as its file is found changed.
import { LruMap } from "../../tool/lruMap.ts";
import type { TextEncodingName } from "../shared/encoding.ts";
import type { ReadOutput } from "./output.ts";

export interface KeptAnswer {
  /** The file's bytes when the answer was made. */
  bytes: Buffer;
  /** What they decode to, and how. */
  text: string;
  encoding: TextEncodingName;
  /** sha256 of `bytes`. */
  hash: string;
  offset: number;
  limit: number;
  isPartialView: boolean;
  /** Frozen: every re-read hands on this same object (its numbered text is made once, see output.ts). */
  output: ReadOutput;
}

export const MAX_ANSWERS = 32;
/** What the kept answers may hold in all: their bytes, text and numbered text, counted as 4x the bytes. */
export const MAX_WEIGHT = 16 << 20;
export const MAX_FILE_BYTES = 256 << 10;

const answers = new LruMap<string, KeptAnswer>(MAX_ANSWERS);

const weightOf = (answer: KeptAnswer) => 4 * answer.bytes.length;

/**
 * The answer kept for this path when the file holds exactly the same bytes as then (its text and hash
 * hold for any range; its output for its own). A file found changed loses its answer.
 */
export function keptAnswer(path: string, bytes: Buffer): KeptAnswer | undefined {
  const kept = answers.get(path);
  if (!kept || kept.bytes.equals(bytes)) return kept;
  answers.delete(path);
  return undefined;
}

/** Keeps an answer (replacing the path's previous one), then drops the oldest while over the bounds. */
export function keepAnswer(path: string, answer: KeptAnswer): void {
  if (answer.bytes.length > MAX_FILE_BYTES) return;
  deepFreeze(answer.output);
  // LruMap drops the oldest past MAX_ANSWERS itself; the weight bound is kept here.
  answers.set(path, answer);
  let weight = keptAnswersSize().weight;
  for (const [oldest, kept] of answers) {
    if (weight <= MAX_WEIGHT) break;
    answers.delete(oldest);
    weight -= weightOf(kept);
  }
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const item of Object.values(value)) deepFreeze(item);
}

/** How many answers are kept and what they weigh (for tests of the bounds). */
export function keptAnswersSize(): { answers: number; weight: number } {
  let weight = 0;
  for (const kept of answers.values()) weight += weightOf(kept);
  return { answers: answers.size, weight };
}
