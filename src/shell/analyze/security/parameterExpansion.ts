// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the examples are bash, where ${...} is literal text
// $VAR and ${...} take their value at run time: the analyzer cannot know the words that run.
import type { SyntaxCheck } from "./types.ts";

export const parameterExpansion: SyntaxCheck = {
  id: "parameter-expansion",
  stage: "syntax",
  description: "variable expansion makes arguments unknown until run time (and unquoted, splits them)",
  run: (tree) => {
    const node = tree.of("simple_expansion")[0] ?? tree.of("expansion")[0];
    return node
      ? `${node.text.slice(0, 40)} is only known at run time; write the value out instead of the variable`
      : undefined;
  },
  examples: {
    trigger: [
      "echo $HOME",
      "cat ${PATH:0:1}etc/passwd",
      "URL=x && curl $URL",
      'echo "$1"',
      "cat <<EOF\n$HOME\nEOF",
    ],
    pass: ["echo '$HOME'", 'echo "\\$HOME"', "echo HOME", "echo $"],
  },
};
