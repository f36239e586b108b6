// When old_string matches nowhere: the region of the file most like it, with line numbers, so the
// model can see what differs and correct old_string in one step.
import { numberLines } from "../shared/diff.ts";
import { splitDisplayLines } from "../shared/encoding.ts";

const MAX_PAIRS = 400_000;
const MAX_LINE = 200;
const MIN_SCORE = 0.35;

function bigrams(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < text.length - 1; i++) {
    const pair = text.slice(i, i + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  return counts;
}

/** Dice similarity of character bigrams, 0..1. */
function similarity(line: string, wanted: Map<string, number>, wantedText: string): number {
  if (line === wantedText) return 1;
  if (line.length < 2 || wantedText.length < 2) return line === wantedText ? 1 : 0;
  const seen = new Map<string, number>();
  let shared = 0;
  for (let i = 0; i < line.length - 1; i++) {
    const pair = line.slice(i, i + 2);
    const used = seen.get(pair) ?? 0;
    if (used < (wanted.get(pair) ?? 0)) shared++;
    seen.set(pair, used + 1);
  }
  return (2 * shared) / (line.length - 1 + wantedText.length - 1);
}

function candidateStarts(lines: string[], oldLines: string[]): number[] {
  const count = oldLines.length;
  const all = lines.length - count + 1;
  if (all <= 0) return [0];
  if (all * count <= MAX_PAIRS) return Array.from({ length: all }, (_, i) => i);
  // Large file: only windows around lines sharing a distinctive word with old_string.
  const words = [...new Set(oldLines.join(" ").match(/[A-Za-z_$][\w$]{3,}/g) ?? [])]
    .sort((a, b) => b.length - a.length)
    .slice(0, 5);
  const starts = new Set<number>();
  const budget = Math.max(1, Math.floor(MAX_PAIRS / count));
  for (let i = 0; i < lines.length && starts.size < budget; i++) {
    const line = lines[i] as string;
    if (!words.some((word) => line.includes(word))) continue;
    for (let j = 0; j < count; j++) if (i - j >= 0 && i - j < all) starts.add(i - j);
  }
  return [...starts];
}

/** The most similar window of lines, numbered with one line of context each side, or undefined. */
export function closestRegion(
  content: string,
  oldString: string,
): { startLine: number; endLine: number; text: string } | undefined {
  const oldLines = splitDisplayLines(oldString.replace(/\n$/, ""))
    .slice(0, 60)
    .map((line) => line.trim().slice(0, MAX_LINE));
  if (oldLines.every((line) => line === "")) return undefined;
  const lines = splitDisplayLines(content);
  const trimmed = lines.map((line) => line.trim().slice(0, MAX_LINE));
  const wanted = oldLines.map(bigrams);
  let best = -1;
  let bestStart = 0;
  for (const start of candidateStarts(trimmed, oldLines)) {
    let total = 0;
    for (let j = 0; j < oldLines.length; j++) {
      total += similarity(trimmed[start + j] ?? "", wanted[j] as Map<string, number>, oldLines[j] as string);
    }
    const score = total / oldLines.length;
    if (score > best) {
      best = score;
      bestStart = start;
    }
  }
  if (best < MIN_SCORE) return undefined;
  const endIndex = Math.min(lines.length, bestStart + oldLines.length) - 1;
  const from = Math.max(0, bestStart - 1);
  const to = Math.min(lines.length - 1, endIndex + 1);
  return {
    startLine: bestStart + 1,
    endLine: endIndex + 1,
    text: numberLines(lines.slice(from, to + 1), from + 1),
  };
}
