// head_limit / offset over a result list, and the note that tells the model how to get the next page.

export const DEFAULT_HEAD_LIMIT = 250;

/** head_limit as the tools take it: undefined -> the default, 0 -> no limit. */
export function effectiveLimit(
  headLimit: number | undefined,
  fallback = DEFAULT_HEAD_LIMIT,
): number | undefined {
  if (headLimit === undefined) return fallback;
  return headLimit === 0 ? undefined : headLimit;
}

export interface PageWindow {
  offset: number;
  /** How many items this page shows. */
  shown: number;
  total: number;
}

/** Undefined when the page shows everything; otherwise what was shown and how to continue. */
export function paginationNote(window: PageWindow, unit: string): string | undefined {
  const { offset, shown, total } = window;
  if (offset === 0 && shown >= total) return undefined;
  if (shown === 0)
    return `[offset=${offset} is past the end: there are ${total} ${unit} in all. Use a smaller offset.]`;
  const last = offset + shown;
  const more = last < total ? ` Use offset=${last} to see more.` : "";
  return `[Showing ${unit} ${offset + 1}-${last} of ${total}.${more}]`;
}
