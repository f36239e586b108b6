// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the examples are bash, where ${...} is literal text
// $VAR and ${...} take their value at run time: the analyzer cannot know the words that run. A plain
// variable only printed (an argument of echo, or of printf without -v) is known to do nothing else.
import type { Node } from "web-tree-sitter";
import { parentOf } from "../grammar/tree.ts";
import type { SyntaxCheck } from "./types.ts";

/** Node types a printed argument may be made of around the variable (`"x $HOME"`, `${PATH}:x`). */
const ARGUMENT_PARTS = new Set(["string", "concatenation"]);
/** The tokens a plain `${NAME}` (or `${#NAME}`, its length) is written with. */
const PLAIN_TOKENS = new Set(["${", "}", "#"]);

/** `$NAME`, `$1`, `${NAME}`, `${#NAME}`: a variable's value and nothing else (no default, pattern or transform). */
function isPlain(node: Node): boolean {
  const named = node.namedChildren.filter((child) => child !== null);
  if (named.length !== 1 || !["variable_name", "special_variable_name"].includes(named[0]?.type ?? ""))
    return false;
  if (node.type === "simple_expansion") return true;
  return node.children.every((child) => child === null || child.isNamed || PLAIN_TOKENS.has(child.type));
}

/** Whether a plain variable is an argument of a command that only prints its arguments. */
function onlyPrinted(node: Node): boolean {
  if (!isPlain(node)) return false;
  let current = node;
  for (let parent = parentOf(node); parent; current = parent, parent = parentOf(parent)) {
    if (ARGUMENT_PARTS.has(parent.type)) continue;
    if (parent.type !== "command") return false;
    const name = parent.childForFieldName("name");
    if (!name || name.id === current.id || current.type === "variable_assignment") return false;
    if (name.text === "echo") return true;
    return (
      name.text === "printf" &&
      !parent.childrenForFieldName("argument").some((argument) => argument?.text.startsWith("-v"))
    );
  }
  return false;
}

export const parameterExpansion: SyntaxCheck = {
  id: "parameter-expansion",
  stage: "syntax",
  description: "variable expansion makes arguments unknown until run time (and unquoted, splits them)",
  run: (tree) => {
    const node = [...tree.of("simple_expansion"), ...tree.of("expansion")].find(
      (found) => !onlyPrinted(found),
    );
    return node
      ? `${node.text.slice(0, 40)} is only known at run time; write the value out instead of the variable`
      : undefined;
  },
  examples: {
    trigger: [
      "cat ${PATH:0:1}etc/passwd",
      "URL=x && curl $URL",
      "cat <<EOF\n$HOME\nEOF",
      "echo ${HOME:-x}",
      "printf -v x $HOME",
      "echo hi > $HOME/x",
      "X=$HOME echo hi",
      "ls $HOME",
      "$HOME/bin/x",
    ],
    pass: [
      "echo '$HOME'",
      'echo "\\$HOME"',
      "echo HOME",
      "echo $",
      "echo $HOME",
      'echo "home is ${HOME}, path ${#PATH} long"',
      "printf '%s\\n' \"$PATH\" $1",
      "echo $HOME > out.txt",
      'echo "$1"',
    ],
  },
};
