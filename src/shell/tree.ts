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

/** The first node (depth first) for which `test` holds, or undefined. */
export function findNode(root: Node, test: (node: Node) => boolean): Node | undefined {
  let found: Node | undefined;
  someNode(root, (node) => {
    if (test(node)) found = node;
    return found !== undefined;
  });
  return found;
}

/** Every node of a tree grouped by type, built in one walk, so each check looks only at what it needs. */
export interface SyntaxIndex {
  root: Node;
  source: string;
  of(type: string): readonly Node[];
}

export function indexTree(root: Node, source: string): SyntaxIndex {
  const byType = new Map<string, Node[]>();
  someNode(root, (node) => {
    const list = byType.get(node.type);
    if (list) list.push(node);
    else byType.set(node.type, [node]);
    return false;
  });
  return { root, source, of: (type) => byType.get(type) ?? [] };
}
