// "Did you mean": names in the same folder close to a missing file's name.

import { readdir } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";
import { isKeelWorkName } from "./keelNames.ts";

function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] ?? limit + 1;
}

function stem(name: string): string {
  const ext = extname(name);
  return (ext ? name.slice(0, -ext.length) : name).toLowerCase();
}

/** Up to `max` paths in the missing file's folder whose names look like what was meant, closest first. */
export async function similarNames(missingPath: string, max = 3): Promise<string[]> {
  const folder = dirname(missingPath);
  const wanted = basename(missingPath);
  let entries: string[];
  try {
    entries = await readdir(folder);
  } catch {
    return [];
  }
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  const scored: Array<{ name: string; score: number }> = [];
  for (const name of entries.slice(0, 10_000)) {
    if (name === wanted || isKeelWorkName(name)) continue;
    let score = editDistance(name.toLowerCase(), wanted.toLowerCase(), limit);
    if (stem(name) === stem(wanted)) score = Math.min(score, 1);
    if (score <= limit) scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name));
  return scored.slice(0, max).map((entry) => join(folder, entry.name));
}

/** A sentence for an error message, or "" when nothing is close. */
export async function didYouMean(missingPath: string): Promise<string> {
  const names = await similarNames(missingPath);
  return names.length === 0 ? "" : ` Did you mean ${names.join(" or ")}?`;
}
