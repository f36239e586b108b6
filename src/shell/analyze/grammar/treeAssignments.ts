// Variables a line sets outside plain commands, for the analysis of a line too complex to follow
// command by command: loop variables (`for HOME in ...`, `select`), assigning expansions
// (`${CDPATH:=x}`, `${HOME=x}`) and arithmetic (`((HOME=0))`, `$((x=1))`, subscripts), which may set
// any name it mentions. shellVariables.ts reads the same for plain commands.
import type { Node } from "web-tree-sitter";
import { parentOf, someNode } from "./tree.ts";

const ARITHMETIC = new Set(["arithmetic_expansion", "c_style_for_statement", "subscript"]);
const ASSIGNING_OPERATORS = new Set(["=", ":="]);

function insideArithmetic(node: Node): boolean {
  for (let parent = parentOf(node); parent; parent = parentOf(parent)) {
    if (ARITHMETIC.has(parent.type)) return true;
    if (parent.type === "compound_statement" && parent.firstChild?.type === "((") return true;
  }
  return false;
}

/** The names the tree's loops, assigning expansions and arithmetic may set. */
export function treeAssignments(root: Node): string[] {
  const names = new Set<string>();
  someNode(root, (node) => {
    if (node.type === "for_statement") {
      const variable = node.childForFieldName("variable");
      if (variable) names.add(variable.text);
    } else if (node.type === "expansion") {
      const name = node.namedChildren.find((child) => child?.type === "variable_name");
      if (name && node.children.some((child) => child !== null && ASSIGNING_OPERATORS.has(child.type)))
        names.add(name.text);
    } else if (node.type === "variable_name" && insideArithmetic(node)) names.add(node.text);
    else if (node.type === "subscript") {
      // An index is arithmetic the grammar may keep as one word (`a[HOME=1]`): every name in it.
      for (const name of node.childForFieldName("index")?.text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [])
        names.add(name);
    }
    return false;
  });
  return [...names];
}
