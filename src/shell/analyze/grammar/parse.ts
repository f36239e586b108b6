// The bash parser: web-tree-sitter with the tree-sitter-bash grammar, loaded once. frontEnd.ts reads
// commands through it.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Node, Parser } from "web-tree-sitter";
import { withBaselineCompilerOnly } from "./wasmCompiler.ts";

export interface SimpleCommand {
  argv: string[];
  assignments: Array<{ name: string; value: string }>;
  redirects: Array<{ op: string; target: string; fd?: number }>;
  text: string;
}

let parser: Parser | undefined;
let loading: Promise<void> | undefined;

/** Loads the wasm runtime and the bash grammar once; later calls return at once. */
export async function initBashParser(): Promise<void> {
  if (parser) return;
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    const runtime = require.resolve("web-tree-sitter/web-tree-sitter.wasm");
    // Imported here, not at the top: processes that never parse Bash skip loading the runtime (~6 ms). By
    // its path, beside its wasm (where it finds the wasm itself by default): the package's name, resolved
    // through its exports map, would cost a process that resolves no other package name ~1.3 ms.
    const { Language, Parser } = (await import(
      pathToFileURL(join(dirname(runtime), "web-tree-sitter.js")).href
    )) as typeof import("web-tree-sitter");
    // Both wasm files are read here, synchronously: given a path, the runtime would import node:fs/promises
    // to read them (with readline and fs's streams, ~2 ms of a one-call process).
    const { readFileSync } = require("node:fs") as typeof import("node:fs");
    await Parser.init({ locateFile: () => runtime, wasmBinary: readFileSync(runtime) });
    const language = await Language.load(
      readFileSync(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm")),
    );
    const created = new Parser();
    created.setLanguage(language);
    parser = created;
  })();
  try {
    await loading;
  } catch (error) {
    loading = undefined;
    throw error;
  }
}

export function isBashParserReady(): boolean {
  return parser !== undefined;
}

/** Parses and hands the syntax tree to `use`; the tree is freed afterwards (it lives in wasm memory). */
export function withBashTree<T>(source: string, use: (root: Node) => T): T {
  const ready = parser;
  if (!ready) throw new Error("The bash parser is not initialised: await initBashParser() first.");
  return withBaselineCompilerOnly(() => {
    const tree = ready.parse(source);
    if (!tree) throw new Error("tree-sitter returned no tree for the command");
    try {
      return use(tree.rootNode);
    } finally {
      tree.delete();
    }
  });
}
