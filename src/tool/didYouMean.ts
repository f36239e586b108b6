// "Did you mean ...?" for names a person typed: a settings key, a tool in a rule, a flag's value.

/** Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The candidate the person most likely meant: the same name in other case, else the nearest within a
 * few edits (one for short names, a third of the length for longer ones). Undefined when none is close.
 */
export function closestName(typed: string, candidates: Iterable<string>): string | undefined {
  const lower = typed.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    if (candidate === typed) return undefined;
    if (candidate.toLowerCase() === lower) return candidate;
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      bestDistance = distance;
      best = candidate;
    }
  }
  const allowed = Math.max(1, Math.floor(typed.length / 3));
  return bestDistance <= allowed ? best : undefined;
}

/** `; did you mean "Read"?` or nothing. */
export function didYouMean(typed: string, candidates: Iterable<string>): string {
  const close = closestName(typed, candidates);
  return close ? `; did you mean "${close}"?` : "";
}
