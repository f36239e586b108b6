// A heredoc ends where bash ends it, not where the grammar does: bash removes quotes from the delimiter
// word (<<E"O"F ends at EOF) and, when it is unquoted, joins backslash-newline in the body before it
// compares a line with it. Where the two readings differ, commands bash runs would look like text.
import type { Node } from "web-tree-sitter";
import type { SyntaxCheck } from "./types.ts";

/** The delimiter bash compares lines with, and whether it was quoted (no expansion, no line joining). */
function bashDelimiter(start: string): { delimiter: string; quoted: boolean } {
  let delimiter = "";
  let quoted = false;
  for (let i = 0; i < start.length; i++) {
    const char = start[i] as string;
    if (char === "'" || char === '"') {
      quoted = true;
      const close = start.indexOf(char, i + 1);
      const end = close === -1 ? start.length : close;
      delimiter += start.slice(i + 1, end);
      i = end;
    } else if (char === "\\") {
      quoted = true;
      delimiter += start[++i] ?? "";
    } else if (char === "$" && (start[i + 1] === "'" || start[i + 1] === '"')) {
      quoted = true;
    } else delimiter += char;
  }
  return { delimiter, quoted };
}

function lineStart(source: string, offset: number): number {
  return source.lastIndexOf("\n", offset - 1) + 1;
}

/** Where bash's heredoc ends: the start of its delimiter line, or the end of the source. */
function bashEnd(
  source: string,
  bodyStart: number,
  delimiter: string,
  quoted: boolean,
  tabs: boolean,
): number {
  let at = bodyStart;
  while (at < source.length) {
    const first = at;
    let line = "";
    for (;;) {
      const newline = source.indexOf("\n", at);
      const end = newline === -1 ? source.length : newline;
      const piece = source.slice(at, end);
      at = newline === -1 ? source.length : newline + 1;
      const trailing = piece.match(/\\+$/)?.[0].length ?? 0;
      if (!quoted && trailing % 2 === 1 && newline !== -1) {
        line += piece.slice(0, -1);
        continue;
      }
      line += piece;
      break;
    }
    if ((tabs ? line.replace(/^\t+/, "") : line) === delimiter) return first;
  }
  return source.length;
}

function childOf(node: Node, type: string): Node | undefined {
  return node.children.find((child): child is Node => child !== null && child.type === type);
}

export const heredocEnd: SyntaxCheck = {
  id: "heredoc-end",
  stage: "syntax",
  // The commands it hides are seen by no other check, so it asks in every mode.
  severity: "safety",
  description:
    "a heredoc bash ends on another line than it appears to (quotes in the delimiter, joined lines)",
  run: (tree) => {
    for (const node of tree.of("heredoc_redirect")) {
      const start = childOf(node, "heredoc_start");
      if (!start) continue;
      const body = childOf(node, "heredoc_body");
      const end = childOf(node, "heredoc_end");
      const bodyStart = body?.startIndex ?? end?.startIndex;
      if (bodyStart === undefined) continue;
      const { delimiter, quoted } = bashDelimiter(start.text);
      const tabs = node.children.some((child) => child?.type === "<<-");
      const bash = bashEnd(tree.source, lineStart(tree.source, bodyStart), delimiter, quoted, tabs);
      const grammar = end ? lineStart(tree.source, end.startIndex) : tree.source.length;
      if (bash !== grammar)
        return `the heredoc ${start.text} ends on another line for bash than it appears to; write a plain delimiter and no backslash at line ends`;
    }
    return undefined;
  },
  examples: {
    trigger: [
      "cat <<EOF\nE\\\nOF\nrm -rf ~\nEOF",
      "cat <<EOF\nEO\\\nF\nrm -rf ~\nEOF",
      'cat <<E"O"F\nhello\nEOF\nrm -rf ~\nE"O"F',
      "cat <<-EOF\n\tE\\\nOF\nrm -rf ~\nEOF",
    ],
    pass: [
      "cat <<'EOF'\nhello\nEOF",
      "cat <<EOF\nhello\nEOF",
      "cat <<-EOF\n\thello\n\tEOF",
      "cat <<EOF\na \\\nb\nEOF",
      "cat <<'EOF'\nx\\\nEOF",
      "git commit -m \"$(cat <<'EOF'\nmessage\nEOF\n)\"",
    ],
  },
};
