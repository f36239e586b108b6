// zod compiles an object schema's parser (new Function) on its first parse, unless zod's `jitless` was
// on when that schema was built. Schemas built at module load (the settings file's, the hook output's)
// are built before a one-shot process (`keel check`, `keel hook`, `keel tool`) can turn it on
// (cli/quickStart.ts), so each compiled one parser per object for its one parse: ~8 ms of a check for
// the settings file alone. Passed to a parse, this context applies the process's choice to the whole
// parse, whenever the schema was built. Long-lived processes keep zod's default (the compiled parsers).
import * as z from "zod";

/** A new object per parse: zod writes its own flags into the context it is given. */
export function parseContext(): { jitless: boolean } {
  return { jitless: z.config().jitless === true };
}
