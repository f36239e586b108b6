// Which of V8's compilers runs the Bash grammar's wasm in this process. A module of its own, so the CLI's
// entry can choose without loading the parser; parse.ts runs every parse through it.
import { createRequire } from "node:module";

/** V8 optimises a function whose budget has run out, unless a filter names another: no function has this index. */
const BASELINE_ONLY = "--wasm-tier-up-filter=2147483647";
/** V8's default: no filter. */
const V8_DEFAULT = "--wasm-tier-up-filter=-1";

let chosen = false;
let depth = 0;
let v8: typeof import("node:v8") | undefined;

/**
 * Keel's own processes (the CLI and its decision server) parse Bash with V8's baseline compiler alone.
 * Left to V8, a command of a few thousand characters makes it optimise the grammar's lexer, one function
 * of ~160 KB: ~0.45 s and ~600 MB on a background thread, and a process that then ends waits for it.
 * The baseline code parses a 100,000-character command in ~55 ms. A program using Keel as a library
 * keeps V8's defaults.
 */
export function parseBashWithBaselineCompilerOnly(): void {
  chosen = true;
}

/**
 * Runs `work`, the synchronous wasm of one parse (and the walk and freeing of its tree), with the filter
 * set; V8's default is back when it returns. The filter is only ever set while no module compiles: V8
 * accepts a cached compile only under the flags it was made with, and Node's own modules come with code
 * compiled under the defaults. Set for the whole process instead, it cost every module loaded after it
 * its cached code, and split Keel's compile cache between the commands that set it earlier or later.
 */
export function withBaselineCompilerOnly<T>(work: () => T): T {
  if (!chosen) return work();
  // node:v8 through require(), on first use: only a process that parses Bash loads it (~1.7 ms).
  v8 ??= createRequire(import.meta.url)("node:v8") as typeof import("node:v8");
  if (depth++ === 0) v8.setFlagsFromString(BASELINE_ONLY);
  try {
    return work();
  } finally {
    if (--depth === 0) v8.setFlagsFromString(V8_DEFAULT);
  }
}
