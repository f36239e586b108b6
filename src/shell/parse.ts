// Bash source -> simple commands, with web-tree-sitter and the tree-sitter-bash grammar. Anything the
// extractor cannot represent as plain commands with literal words is "too complex", which means ask.
import { createRequire } from "node:module";
import type { Node, Parser } from "web-tree-sitter";
import { extractCommands } from "./extract.ts";
import { SYNTAX_CHECKS } from "./security/index.ts";
import { indexTree } from "./tree.ts";

export interface SimpleCommand {
  argv: string[];
  assignments: Array<{ name: string; value: string }>;
  redirects: Array<{ op: string; target: string; fd?: number }>;
  text: string;
}

export type ParseResult =
  | { kind: "simple"; commands: SimpleCommand[]; operators: string[] }
  | { kind: "too-complex"; reason: string; check: string };

let parser: Parser | undefined;
let loading: Promise<void> | undefined;

/** Loads the wasm runtime and the bash grammar once; later calls return at once. */
export async function initBashParser(): Promise<void> {
  if (parser) return;
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    // Imported here, not at the top: processes that never parse Bash skip loading the runtime (~6 ms).
    const { Language, Parser } = await import("web-tree-sitter");
    await Parser.init({ locateFile: () => require.resolve("web-tree-sitter/web-tree-sitter.wasm") });
    const language = await Language.load(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
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
  if (!parser) throw new Error("The bash parser is not initialised: await initBashParser() first.");
  const tree = parser.parse(source);
  if (!tree) throw new Error("tree-sitter returned no tree for the command");
  try {
    return use(tree.rootNode);
  } finally {
    tree.delete();
  }
}

/**
 * The command as plain simple commands and the operators between them, or why it is too complex.
 * Syntax checks (substitutions, expansions, quoting tricks) run first so the reason names the trick.
 */
export function parseBashCommand(command: string): ParseResult {
  return withBashTree(command, (root) => {
    const tree = indexTree(root, command);
    for (const check of SYNTAX_CHECKS) {
      const reason = check.run(tree);
      if (reason !== undefined) return { kind: "too-complex", reason, check: check.id };
    }
    const extraction = extractCommands(root, command);
    const problem = extraction.problems[0];
    if (problem) return { kind: "too-complex", reason: problem.reason, check: problem.check };
    return {
      kind: "simple",
      commands: extraction.commands.map((command) => command.simple),
      operators: extraction.operators,
    };
  });
}
