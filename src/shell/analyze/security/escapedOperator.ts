// `\;` is a literal semicolon, but `\\;` is a backslash followed by a real separator: lexers that
// treat backslash-operator pairs loosely disagree with bash about where commands end. A word that is
// only `\;` (find -exec's terminator) is read alike by all of them.
import type { SyntaxCheck } from "./types.ts";

const ESCAPED_OPERATOR = /(?:^|[^\\])(?:\\\\)*\\[;&|<>()]/;

export const escapedOperator: SyntaxCheck = {
  id: "escaped-operator",
  stage: "syntax",
  description: "backslash-escaped operators (\\; \\| \\&) and escaped backslashes before operators",
  run: ({ of, source }) => {
    // Both forms need a backslash in a word, and node texts are slices of the source.
    if (!source.includes("\\")) return undefined;
    const node = of("word").find((candidate) => {
      if (candidate.text === "\\;" && /^\s?$/.test(source[candidate.startIndex - 1] ?? "")) return false;
      if (ESCAPED_OPERATOR.test(candidate.text)) return true;
      const trailing = candidate.text.match(/\\+$/)?.[0].length ?? 0;
      return trailing > 0 && trailing % 2 === 0 && /[;&|<>]/.test(source[candidate.endIndex] ?? "");
    });
    return node
      ? `the word ${node.text.slice(0, 40)} escapes or borders a shell operator; quote it instead`
      : undefined;
  },
  examples: {
    trigger: [
      "echo \\\\; touch /tmp/pwned",
      "echo a\\;b",
      "echo x \\| sh",
      "find . -exec ls {} \\\\;",
      "find . -exec ls {}\\; -quit",
    ],
    pass: [
      "echo 'a;b'",
      "echo a; echo b",
      "echo 'a\\;b'",
      "ls src\\ dir",
      "find . -exec ls {} \\;",
      "find . -exec ls {} \\; ; echo x",
    ],
  },
};
