// Every command anywhere in a syntax tree, hidden ones included (inside substitutions, subshells, loops,
// functions...): what deny rules and safety checks must see. extract.ts reads only plain commands.
import type { Node } from "web-tree-sitter";
import { Extractor, REDIRECT_TYPES } from "./extract.ts";
import type { ExtractedCommand } from "./extractedCommand.ts";
import { parentOf, someNode } from "./tree.ts";

const COMMAND_NODES = new Set(["command", "declaration_command", "unset_command"]);
const ASSIGNMENT_STATEMENTS = new Set(["variable_assignment", "variable_assignments"]);
const ASSIGNMENT_HOLDERS = new Set([
  "command",
  "declaration_command",
  "variable_assignments",
  "variable_assignment",
]);

/**
 * Every command anywhere in the tree (inside substitutions, subshells, loops, functions...), each with
 * the redirects of its statement. For deny rules and safety checks, which must see hidden commands.
 */
export function extractEveryCommand(root: Node, source: string): ExtractedCommand[] {
  const extractor = new Extractor(source);
  someNode(root, (node) => {
    if (COMMAND_NODES.has(node.type)) extractor.command(node, trailingRedirects(node), readsPipe(node));
    else if (
      (node.type === "redirected_statement" && redirectsWholeStatement(node)) ||
      node.type === "function_definition"
    )
      extractor.redirectsOnly(node);
    else if (ASSIGNMENT_STATEMENTS.has(node.type) && !ASSIGNMENT_HOLDERS.has(parentOf(node)?.type ?? ""))
      extractor.command(node, [], false);
    return false;
  });
  return extractor.commands;
}

/**
 * A redirect on a statement that is not one command (`{ ...; } > f`, `(...) < f`, `for ... done > f`,
 * a function definition's own): it applies to everything inside, and is kept as a command of no words.
 */
function redirectsWholeStatement(node: Node): boolean {
  const body = node.childForFieldName("body");
  if (!body) return false;
  return !COMMAND_NODES.has(body.type) && !["list", "pipeline", "negated_command"].includes(body.type);
}

/** A command after the first of a pipeline (directly, or as the body of a redirected statement). */
function readsPipe(node: Node): boolean {
  const parent = parentOf(node);
  const statement = parent?.type === "redirected_statement" ? parent : node;
  const pipeline = parentOf(statement);
  if (pipeline?.type !== "pipeline") return false;
  const first = pipeline.namedChildren.find((child) => child !== null && child.type !== "comment");
  return first?.id !== statement.id;
}

/** Redirects that bind to this command: its statement's, and those the grammar hung on an enclosing list. */
function trailingRedirects(node: Node): Node[] {
  const found: Node[] = [];
  let current = node;
  for (let parent = parentOf(current); parent; parent = parentOf(current)) {
    if (parent.type === "redirected_statement" && parent.childForFieldName("body")?.id === current.id) {
      found.push(
        ...parent.children.filter((child): child is Node => child !== null && REDIRECT_TYPES.has(child.type)),
      );
    } else if (parent.type === "negated_command") {
      // `! cmd > f`: the grammar hangs the redirect on the negation; bash binds it to cmd.
    } else if (parent.type === "list" || parent.type === "pipeline") {
      const last = parent.namedChildren.filter((child) => child !== null && child.type !== "comment").at(-1);
      if (last?.id !== current.id) break;
    } else break;
    current = parent;
  }
  return found;
}
