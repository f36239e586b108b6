// Small statistics helpers shared by the benchmarks.
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function summarize(samples: readonly number[]): { median: number; p99: number; mean: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length);
  return { median: percentile(sorted, 50), p99: percentile(sorted, 99), mean };
}

export function ratio(value: number, reference: number): string {
  return `${(value / reference).toFixed(2)}x`;
}

export function printTable(rows: Array<Record<string, string | number>>): void {
  if (rows.length === 0) return;
  const keys = Object.keys(rows[0]!);
  const cell = (value: string | number) =>
    typeof value === "number" ? value.toFixed(value < 10 ? 2 : 1) : value;
  const widths = keys.map((key) =>
    Math.max(key.length, ...rows.map((row) => String(cell(row[key] ?? "")).length)),
  );
  process.stdout.write(`${keys.map((key, i) => key.padEnd(widths[i]!)).join("  ")}\n`);
  for (const row of rows)
    process.stdout.write(
      `${keys.map((key, i) => String(cell(row[key] ?? "")).padEnd(widths[i]!)).join("  ")}\n`,
    );
}

/** One comparison for the startup bench's summary: a median against its reference, and the ratio aimed at. */
export interface MeasureRow {
  name: string;
  medianMs: number;
  referenceMs: number;
  /** Absent: printed for information, not judged. */
  target?: number;
}

/** "1.04x: met", or "information" for a row without a target. */
export function verdict(row: MeasureRow): string {
  if (row.target === undefined) return "information";
  const value = row.medianMs / row.referenceMs;
  return `${row.target.toFixed(2)}x: ${value <= row.target ? "met" : "not met"}`;
}

/** ">= 0.70x: met": a ratio judged against a target it must reach (a rate) or stay within (a time). */
export function meets(value: number, target: number, direction: "atLeast" | "atMost"): string {
  const met = direction === "atLeast" ? value >= target : value <= target;
  return `${direction === "atLeast" ? ">=" : "<="} ${target.toFixed(2)}x: ${met ? "met" : "not met"}`;
}

/** A repeatable pseudo-random sequence in [0, 1] (the generated trees are the same in every run). */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}
