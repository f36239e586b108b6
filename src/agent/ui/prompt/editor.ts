// The prompt's text and cursor, and every edit on them as a pure function: the keys of the terminal UI
// map onto these (keys.ts), and the tests drive them directly. The cursor is a UTF-16 index that
// always sits on a grapheme boundary, so one step never splits an emoji or an accented letter.

export interface EditorState {
  readonly text: string;
  readonly cursor: number;
}

export const EMPTY_EDITOR: EditorState = { text: "", cursor: 0 };

export function editorWith(text: string, cursor = text.length): EditorState {
  return { text, cursor: Math.max(0, Math.min(cursor, text.length)) };
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** The grapheme boundary before `index` (0 at the start). */
function previousBoundary(text: string, index: number): number {
  if (index <= 0) return 0;
  // Segment a window around the index: grapheme clusters are short, so 32 code units back is plenty.
  const from = Math.max(0, index - 32);
  let boundary = from;
  for (const { index: start } of graphemes.segment(text.slice(from, index))) boundary = from + start;
  return boundary;
}

/** The grapheme boundary after `index` (the text's length at the end). */
function nextBoundary(text: string, index: number): number {
  if (index >= text.length) return text.length;
  const segment = graphemes
    .segment(text.slice(index, index + 32))
    [Symbol.iterator]()
    .next();
  return segment.done ? text.length : index + segment.value.segment.length;
}

function lineStartOf(text: string, index: number): number {
  return text.lastIndexOf("\n", index - 1) + 1;
}

function lineEndOf(text: string, index: number): number {
  const end = text.indexOf("\n", index);
  return end === -1 ? text.length : end;
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && WORD_CHAR.test(char);
}

/** Where a word-jump left lands: the start of the word before the cursor. */
function wordStartBefore(text: string, index: number): number {
  let i = index;
  while (i > 0 && !isWordChar(text[i - 1])) i--;
  while (i > 0 && isWordChar(text[i - 1])) i--;
  return i;
}

/** Where a word-jump right lands: the end of the word after the cursor. */
function wordEndAfter(text: string, index: number): number {
  let i = index;
  while (i < text.length && !isWordChar(text[i])) i++;
  while (i < text.length && isWordChar(text[i])) i++;
  return i;
}

function replace(state: EditorState, from: number, to: number, insert: string): EditorState {
  return { text: state.text.slice(0, from) + insert + state.text.slice(to), cursor: from + insert.length };
}

export function insertText(state: EditorState, text: string): EditorState {
  return replace(state, state.cursor, state.cursor, text);
}

export function deleteBackward(state: EditorState): EditorState {
  return replace(state, previousBoundary(state.text, state.cursor), state.cursor, "");
}

export function deleteForward(state: EditorState): EditorState {
  return replace(state, state.cursor, nextBoundary(state.text, state.cursor), "");
}

export function moveLeft(state: EditorState): EditorState {
  return { ...state, cursor: previousBoundary(state.text, state.cursor) };
}

export function moveRight(state: EditorState): EditorState {
  return { ...state, cursor: nextBoundary(state.text, state.cursor) };
}

export function moveLineStart(state: EditorState): EditorState {
  return { ...state, cursor: lineStartOf(state.text, state.cursor) };
}

export function moveLineEnd(state: EditorState): EditorState {
  return { ...state, cursor: lineEndOf(state.text, state.cursor) };
}

export function moveWordLeft(state: EditorState): EditorState {
  return { ...state, cursor: wordStartBefore(state.text, state.cursor) };
}

export function moveWordRight(state: EditorState): EditorState {
  return { ...state, cursor: wordEndAfter(state.text, state.cursor) };
}

/** Ctrl+W: back to the previous whitespace, as shells do (`git commit -m` loses `-m`, then `commit `). */
export function deleteWordBackward(state: EditorState): EditorState {
  let i = state.cursor;
  while (i > 0 && /\s/.test(state.text[i - 1] ?? "")) i--;
  while (i > 0 && !/\s/.test(state.text[i - 1] ?? "")) i--;
  return replace(state, i, state.cursor, "");
}

/** Alt+D: the word after the cursor. */
export function deleteWordForward(state: EditorState): EditorState {
  return replace(state, state.cursor, wordEndAfter(state.text, state.cursor), "");
}

/** Ctrl+K: to the end of the line; at the end of a line, the line break. */
export function killToLineEnd(state: EditorState): EditorState {
  const end = lineEndOf(state.text, state.cursor);
  return replace(state, state.cursor, end === state.cursor ? Math.min(end + 1, state.text.length) : end, "");
}

/** Ctrl+U: to the start of the line. */
export function killToLineStart(state: EditorState): EditorState {
  return replace(state, lineStartOf(state.text, state.cursor), state.cursor, "");
}

/** Line and column (in code units) of the cursor, both from 0. */
export function cursorPosition(state: EditorState): { line: number; column: number; lines: number } {
  const before = state.text.slice(0, state.cursor);
  const line = before.split("\n").length - 1;
  return {
    line,
    column: state.cursor - lineStartOf(state.text, state.cursor),
    lines: state.text.split("\n").length,
  };
}

/** The cursor one line up, at the same column or the line's end; undefined on the first line. */
export function moveUp(state: EditorState): EditorState | undefined {
  const start = lineStartOf(state.text, state.cursor);
  if (start === 0) return undefined;
  const column = state.cursor - start;
  const previousStart = lineStartOf(state.text, start - 1);
  return { ...state, cursor: Math.min(previousStart + column, start - 1) };
}

/** The cursor one line down, at the same column or the line's end; undefined on the last line. */
export function moveDown(state: EditorState): EditorState | undefined {
  const end = lineEndOf(state.text, state.cursor);
  if (end === state.text.length) return undefined;
  const column = state.cursor - lineStartOf(state.text, state.cursor);
  return { ...state, cursor: Math.min(end + 1 + column, lineEndOf(state.text, end + 1)) };
}

/**
 * Text from a paste or a fast burst of keys, made safe to insert: line breaks become \n, other
 * control characters (a pasted escape sequence, a stray DEL) are dropped, tabs are kept.
 */
export function cleanInsertedText(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "");
}
