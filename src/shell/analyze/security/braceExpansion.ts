// {a,b} and {1..3} turn one word into several, so `{rm,-rf,/}` is three words and can form options.

import { parentOf } from "../grammar/tree.ts";
import { decodeWord } from "../grammar/words.ts";
import type { SyntaxCheck } from "./types.ts";

export const braceExpansion: SyntaxCheck = {
  id: "brace-expansion",
  stage: "syntax",
  description: "brace expansion turns one visible word into several arguments",
  run: (tree) => {
    const { of, source } = tree;
    // Every form below needs a `{` in a node's text, and node texts are slices of the source.
    if (!source.includes("{")) return undefined;
    const node = [...of("brace_expression"), ...of("word"), ...of("concatenation")].find((candidate) => {
      if (candidate.type === "brace_expression") return true;
      // Without `{` in its text a word neither sits in a broken brace nor decodes to a brace.
      if (!candidate.text.includes("{")) return false;
      if (parentOf(candidate)?.type === "concatenation") return false;
      if (parentOf(candidate)?.type === "ERROR") return true;
      return decodeWord(candidate, source).brace;
    });
    const broken = tree.of("ERROR").find((candidate) => /\{[^{}\s]*(,|\.\.)[^{}\s]*\}/.test(candidate.text));
    if (!node && broken)
      return `brace expansion ${broken.text.slice(0, 40)} turns one word into several; write the words out`;
    return node
      ? `brace expansion ${node.text.slice(0, 40)} turns one word into several; write the words out`
      : undefined;
  },
  examples: {
    trigger: ["echo a{b,c}d", "ls {1..3}", "{rm,-rf,/}", "cp x{,.bak}"],
    pass: ["echo '{a,b}'", "find . -name x -print {}", "echo {}", "git log --format='{%H}'"],
  },
};
