// Small helpers over tree-sitter syntax trees.
import type { Node } from "web-tree-sitter";

/** Calls `visit` on every node of the tree, depth first; stops early when it returns true. */
export function someNode(root: Node, visit: (node: Node) => boolean): boolean {
  const cursor = root.walk();
  try {
    for (;;) {
      if (visit(cursor.currentNode)) return true;
      if (cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return false;
      }
    }
  } finally {
    cursor.delete();
  }
}

/** Every node of a tree grouped by type, built in one walk, so each check looks only at what it needs. */
export interface SyntaxIndex {
  root: Node;
  source: string;
  of(type: string): readonly Node[];
}

/**
 * The node types the syntax checks ask for, collected in the first walk. Only these get a Node object
 * (the costly part of a walk); any other type is collected by its own walk on first request.
 */
const INDEXED_TYPES: ReadonlySet<string> = new Set([
  "ERROR",
  "heredoc_redirect",
  "word",
  "concatenation",
  "comment",
  "brace_expression",
  "ansi_c_string",
  "translated_string",
  "$",
  "${",
  "expansion",
  "simple_expansion",
  "variable_name",
  "command_substitution",
  "process_substitution",
  "arithmetic_expansion",
  "((",
  "$((",
  ">|",
]);

export function indexTree(root: Node, source: string): SyntaxIndex {
  const byType = new Map<string, Node[]>();
  for (const type of INDEXED_TYPES) byType.set(type, []);
  const cursor = root.walk();
  try {
    for (;;) {
      const list = byType.get(cursor.nodeType);
      if (list) list.push(cursor.currentNode);
      if (cursor.gotoFirstChild()) continue;
      let next = true;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) {
          next = false;
          break;
        }
      }
      if (!next) break;
    }
  } finally {
    cursor.delete();
  }
  const of = (type: string): readonly Node[] => {
    let list = byType.get(type);
    if (!list) {
      const found: Node[] = [];
      someNode(root, (node) => {
        if (node.type === type) found.push(node);
        return false;
      });
      list = found;
      byType.set(type, list);
    }
    return list;
  };
  return { root, source, of };
}
