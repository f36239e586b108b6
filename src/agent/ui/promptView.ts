// The prompt line on screen: "> " then the text, line by line, with the cursor as an inverted
// character. A long prompt (a big paste) shows a window of lines around the cursor.
import { Box, Text } from "ink";
import { createElement as h, type ReactElement } from "react";
import type { EditorState } from "./prompt/editor.ts";

const WINDOW_LINES = 10;

function lineWithCursor(line: string, column: number | undefined, key: number): ReactElement {
  if (column === undefined) return h(Text, { key }, line || " ");
  const under = [...line.slice(column)][0];
  return h(
    Text,
    { key },
    line.slice(0, column),
    h(Text, { inverse: true }, under ?? " "),
    under === undefined ? "" : line.slice(column + under.length),
  );
}

export function PromptView({ editor, active }: { editor: EditorState; active: boolean }): ReactElement {
  const lines = editor.text.split("\n");
  const before = editor.text.slice(0, editor.cursor).split("\n");
  const cursorLine = before.length - 1;
  const cursorColumn = (before.at(-1) ?? "").length;
  const first = Math.max(0, Math.min(cursorLine - Math.floor(WINDOW_LINES / 2), lines.length - WINDOW_LINES));
  const shown = lines.slice(first, first + WINDOW_LINES);
  const rows: ReactElement[] = [];
  if (first > 0) rows.push(h(Text, { key: "above", dimColor: true }, `  … ${first} more lines above`));
  shown.forEach((line, offset) => {
    const index = first + offset;
    rows.push(
      h(
        Text,
        { key: index },
        h(Text, { color: "cyan" }, index === 0 ? "> " : "  "),
        lineWithCursor(line, active && index === cursorLine ? cursorColumn : undefined, index),
      ),
    );
  });
  const below = lines.length - first - shown.length;
  if (below > 0) rows.push(h(Text, { key: "below", dimColor: true }, `  … ${below} more lines below`));
  return h(Box, { flexDirection: "column" }, ...rows);
}
