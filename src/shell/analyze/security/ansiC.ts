// $'...' decodes escapes ($'\x72\x6d' is rm) and $"..." is translated: the text shown is not the text run.

import { parentOf } from "../grammar/tree.ts";
import type { SyntaxCheck } from "./types.ts";

export const ansiC: SyntaxCheck = {
  id: "ansi-c-quoting",
  stage: "syntax",
  description: "ANSI-C $'...' and locale $\"...\" quoting turn escapes into other characters",
  run: (tree) => {
    const node = tree.of("ansi_c_string")[0] ?? tree.of("translated_string")[0];
    // The grammar reads $"..." as a lone $ followed by a string.
    const dollar = tree
      .of("$")
      .find(
        (candidate) =>
          candidate.nextSibling?.startIndex === candidate.endIndex &&
          parentOf(candidate)?.type !== "simple_expansion" &&
          parentOf(candidate)?.type !== "expansion",
      );
    if (!node && dollar)
      return `locale quoting $${dollar.nextSibling?.text.slice(0, 40)} can be translated into other text`;
    if (!node) return undefined;
    return node.type === "ansi_c_string"
      ? `ANSI-C quoting ${node.text.slice(0, 40)} decodes escapes into other characters; write the text plainly`
      : `locale quoting ${node.text.slice(0, 40)} can be translated into other text`;
  },
  examples: {
    trigger: ["$'\\x72\\x6d' -rf ./src", "a=$'\\x63url'", "echo $'\\n'", 'echo $"hello"'],
    pass: ["echo '\\x72'", "printf '\\n'", 'echo "$x"'],
  },
};
