// Unicode spaces, zero-width and bidirectional characters look like (or hide) ordinary text.
import type { TextCheck } from "./types.ts";

const INVISIBLE =
  /[\u00a0\u00ad\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u2066-\u206f\u3000\ufeff\ufff9-\ufffb]/;

export const unicodeWhitespace: TextCheck = {
  id: "unicode-whitespace",
  stage: "text",
  description: "non-ASCII spaces and invisible characters make words look split or joined when they are not",
  run: (command) => {
    const match = command.match(INVISIBLE);
    if (!match) return undefined;
    const code = (match[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
    return `the command contains the invisible or non-ASCII space character U+${code}`;
  },
  examples: {
    trigger: [
      "ls\u00a0-la",
      "rm\u2009-rf x",
      "echo a\u200bb",
      "cat \u202efdp.txt",
      "ls\u3000src",
      "echo \ufeffx",
    ],
    pass: ["echo héllo wörld", "grep 日本 README.md", "ls -la"],
  },
};
