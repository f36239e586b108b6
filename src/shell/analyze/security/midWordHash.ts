// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the examples are bash, where ${...} is literal text
// `#` starts a comment only at the start of a word; tools that strip from any `#` see less than runs.

import { parentOf } from "../grammar/tree.ts";
import type { SyntaxCheck } from "./types.ts";

export const midWordHash: SyntaxCheck = {
  id: "mid-word-hash",
  stage: "syntax",
  description: "a # inside a word is literal in bash but looks like a comment",
  run: ({ of, source }) => {
    // Both forms need a `#` in a node's text, and node texts are slices of the source.
    if (!source.includes("#")) return undefined;
    const node = [...of("word"), ...of("comment")].find((candidate) => {
      if (candidate.type === "word") {
        if (parentOf(candidate)?.type === "concatenation" && candidate.text.startsWith("#")) return true;
        return /[^\\]#/.test(candidate.text);
      }
      if (candidate.type === "comment")
        return candidate.startIndex > 0 && !/\s/.test(source[candidate.startIndex - 1] ?? " ");
      return false;
    });
    return node ? `the # in ${node.text.slice(0, 40)} is not a comment; quote the word` : undefined;
  },
  examples: {
    trigger: ["ls src#; touch /tmp/pwned", "echo a#b", '"src"#x'],
    pass: ["ls src # a comment", "echo 'a#b'", "echo ${#x}", "# just a comment"],
  },
};
