// Small helpers over tree-sitter syntax trees.
import type { Node, Tree } from "web-tree-sitter";

/** Each tree's nodes by id, to their parents: built by one walk of the tree, on the first `parentOf`. */
const parentsByTree = new WeakMap<Tree, Map<number, Node | null>>();

/**
 * `node.parent`, in constant time. tree-sitter finds a parent by descending from the root, so a check
 * walking up from every node of a long `a && b && ...` (nested one level per command) was cubic: 1.4 s
 * for a 22,000-character command. The index costs one walk, and a Node object per node with children.
 */
export function parentOf(node: Node): Node | null {
  let parents = parentsByTree.get(node.tree);
  if (!parents) {
    parents = indexParents(node.tree.rootNode);
    parentsByTree.set(node.tree, parents);
  }
  const parent = parents.get(node.id);
  return parent === undefined ? node.parent : parent;
}

function indexParents(root: Node): Map<number, Node | null> {
  const parents = new Map<number, Node | null>([[root.id, null]]);
  const ancestors: Node[] = [];
  const cursor = root.walk();
  try {
    for (;;) {
      if (cursor.gotoFirstChild()) {
        // A node with children: back up once to make its Node object (leaves never get one), then down.
        const child = cursor.nodeId;
        cursor.gotoParent();
        ancestors.push(cursor.currentNode);
        cursor.gotoFirstChild();
        parents.set(child, ancestors.at(-1) ?? null);
        continue;
      }
      for (;;) {
        if (cursor.gotoNextSibling()) {
          parents.set(cursor.nodeId, ancestors.at(-1) ?? null);
          break;
        }
        if (!cursor.gotoParent()) return parents;
        ancestors.pop();
      }
    }
  } finally {
    cursor.delete();
  }
}

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
