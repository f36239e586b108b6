// How many paths the last listing of the same search printed, in this process. rg block-buffers what it
// writes into a pipe, so a listing of a few thousand paths reaches Keel all at once as rg exits, and
// only then are its files stat'ed for the newest-first order. Asked line by line (--line-buffered),
// they are stat'ed while rg still walks: on a 2,000-file tree, Glob "**/*.ts" went from 1.28x to about
// 1.06x rg's own sorted listing. A large listing keeps the buffer: a write per path cost the
// 200,000-file tree more than the overlap won (1.02x -> 1.24x). A large listing also has every path
// stat'ed on the workers from the first: the main thread then only reads rg's output, and three busy
// threads no longer share two cores while rg walks (40,000 of 200,000 files: rounds 0.85-0.92x -> 0.84-0.85x
// rg's sorted listing at the 90th percentile). Results are the same either way.

import { LruMap } from "../../tool/lruMap.ts";

/** Up to this many paths (where the main thread still stats them as they come, newestFirst.ts). */
const LINE_BUFFERED_UP_TO = 8192;
const sizes = new LruMap<string, number>(256);

/** rg's buffering for a search, by what the same search printed last time (unknown: rg's default). */
export function bufferingArgs(search: string): string[] {
  const size = sizes.get(search);
  return size !== undefined && size <= LINE_BUFFERED_UP_TO ? ["--line-buffered"] : [];
}

/** Whether the same search printed more than that last time: its paths go to the stat workers from the first. */
export function remembersLargeListing(search: string): boolean {
  const size = sizes.get(search);
  return size !== undefined && size > LINE_BUFFERED_UP_TO;
}

export function rememberListingSize(search: string, printed: number): void {
  sizes.set(search, printed);
}
