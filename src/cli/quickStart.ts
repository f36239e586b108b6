// A process that decides or runs one call and ends (`keel check`, `keel tool`, `keel hook`) spends its
// time starting up, not in hot loops: optimisations that pay off in a long session cost it instead.
import * as z from "zod";

let longLived = false;

/** The decision server runs those commands for hours: it keeps the optimisations. */
export function keepLongLivedDefaults(): void {
  longLived = true;
}

export function preferQuickStart(): void {
  if (longLived) return;
  // zod compiles a parser per object schema on first use (new Function); parsing one input is faster
  // without it.
  z.config({ jitless: true });
}
