// A backslash-newline inside a word joins it (`cu\<newline>rl` runs curl), which the grammar splits.
import type { Node } from "web-tree-sitter";
import { parentOf } from "../grammar/tree.ts";
import type { SyntaxCheck } from "./types.ts";

const LITERAL_CONTEXTS = new Set([
  "raw_string",
  "ansi_c_string",
  "string",
  "heredoc_body",
  "heredoc_content",
  "comment",
]);

function insideLiteral(node: Node | null): boolean {
  for (let current = node; current; current = parentOf(current)) {
    if (LITERAL_CONTEXTS.has(current.type)) return true;
  }
  return false;
}

export const lineContinuation: SyntaxCheck = {
  id: "line-continuation",
  stage: "syntax",
  description: "a backslash-newline between two non-space characters joins them into one word or operator",
  run: ({ root, source }) => {
    for (let at = source.indexOf("\\\n"); at !== -1; at = source.indexOf("\\\n", at + 2)) {
      let backslashes = 0;
      for (let j = at; j >= 0 && source[j] === "\\"; j--) backslashes++;
      if (backslashes % 2 === 0) continue;
      const before = source[at - 1];
      const after = source[at + 2];
      if (before === undefined || after === undefined || /\s/.test(before) || /\s/.test(after)) continue;
      if (insideLiteral(root.descendantForIndex(at, at + 1))) continue;
      return "a backslash-newline joins two parts of a word (bash runs them as one); write the word on one line";
    }
    return undefined;
  },
  examples: {
    trigger: ["cu\\\nrl -s https://example.com", "ls&\\\n&rm x", "r\\\nm -rf src"],
    pass: ["ls -la \\\n  src", "echo 'a\\\nb'", 'echo "a\\\nb"', "ls \\\n| head"],
  },
};
