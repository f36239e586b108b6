// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the examples are bash, where ${...} is literal text
// ${x@P} prompt-expands (running $(...) inside), ${!x} expands a name chosen at run time (with array
// subscripts evaluated), and zsh's ${(e)...} re-evaluates: each can run code without a visible $(.
import type { SyntaxCheck } from "./types.ts";

export const parameterTransform: SyntaxCheck = {
  id: "parameter-transform",
  stage: "syntax",
  description: "${x@P}, ${!x} and zsh ${(e)x} evaluate text as code or as a variable name",
  run: (tree) => {
    const zshFlags = tree.of("${").find((candidate) => candidate.nextSibling?.type === "(");
    const node =
      zshFlags ??
      tree.of("expansion").find((candidate) => {
        const operators = candidate.children.filter((child) => child !== null && child.type !== "${");
        const first = operators[0];
        if (first?.type === "!") return true;
        return operators.some((child, i) => child?.type === "@" && i > 0);
      });
    if (!node) return undefined;
    if (node.type === "${") return "zsh parameter flags ${(...)...} can re-evaluate the value as code";
    return node.text.startsWith("${!")
      ? `indirect expansion ${node.text} takes a variable name from another variable`
      : `the transform ${node.text} can evaluate the value (\${x@P} runs command substitutions)`;
  },
  examples: {
    trigger: [
      'echo ${one="$"}${two="$one(touch /tmp/pwned)"}${two@P}',
      "x='a[$(id)]'; echo ${!x}",
      "echo ${!prefix*}",
      "typeset -i ${(e):-'$(id)'}",
      'echo "${var1=aa\\140 env\\140}${var1@P}"',
    ],
    pass: ["echo ${HOME}", "echo ${#x}", "echo '${x@P}'", "echo ${x:-default}"],
  },
};
