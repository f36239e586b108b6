// Which of V8's compilers the Bash grammar's wasm runs under in this process; parse.ts reads it when the
// grammar loads. A module of its own, so the CLI's entry can choose without loading the parser.

let baselineOnly = false;

/**
 * Keel's own processes (the CLI and its decision server) parse Bash with V8's baseline compiler alone.
 * Left to V8, a command of a few thousand characters makes it optimise the grammar's lexer, one function
 * of ~160 KB: ~0.45 s and ~600 MB on a background thread, and a process that then ends waits for it.
 * The baseline code parses a 100,000-character command in ~55 ms. The switch is process-wide (V8 flags),
 * so a program using Keel as a library keeps V8's defaults.
 */
export function parseBashWithBaselineCompilerOnly(): void {
  baselineOnly = true;
}

export function bashParsedWithBaselineCompilerOnly(): boolean {
  return baselineOnly;
}
