// The editor model, one row per edit: text with the cursor written as "|", before and after.
import { describe, expect, it } from "vitest";
import {
  cleanInsertedText,
  cursorPosition,
  deleteBackward,
  deleteForward,
  deleteWordBackward,
  deleteWordForward,
  type EditorState,
  insertText,
  killToLineEnd,
  killToLineStart,
  moveDown,
  moveLeft,
  moveLineEnd,
  moveLineStart,
  moveRight,
  moveUp,
  moveWordLeft,
  moveWordRight,
} from "./editor.ts";

/** "ab|c" is the text "abc" with the cursor before "c". */
function at(marked: string): EditorState {
  const cursor = marked.indexOf("|");
  return { text: marked.replace("|", ""), cursor };
}

function show(state: EditorState | undefined): string | undefined {
  return state && `${state.text.slice(0, state.cursor)}|${state.text.slice(state.cursor)}`;
}

type Edit = (state: EditorState) => EditorState | undefined;

const CASES: Array<[string, Edit, string, string | undefined]> = [
  ["backspace", deleteBackward, "hel|lo", "he|lo"],
  ["backspace at the start", deleteBackward, "|hello", "|hello"],
  ["backspace over an emoji", deleteBackward, "a👍🏽|b", "a|b"],
  ["backspace over a combining accent", deleteBackward, "cafe\u0301|", "caf|"],
  ["delete forward", deleteForward, "he|llo", "he|lo"],
  ["delete forward at the end", deleteForward, "hello|", "hello|"],
  ["left", moveLeft, "ab|c", "a|bc"],
  ["left over a flag", moveLeft, "x🇫🇷|", "x|🇫🇷"],
  ["right", moveRight, "a|bc", "ab|c"],
  ["right at the end", moveRight, "abc|", "abc|"],
  ["line start", moveLineStart, "one\ntw|o", "one\n|two"],
  ["line end", moveLineEnd, "o|ne\ntwo", "one|\ntwo"],
  ["word left", moveWordLeft, "git commit -m fi|x", "git commit -m |fix"],
  ["word left skips punctuation", moveWordLeft, "git commit -m |fix", "git commit -|m fix"],
  ["word right", moveWordRight, "|git commit", "git| commit"],
  ["word right from a space", moveWordRight, "git| commit", "git commit|"],
  ["word right in other scripts", moveWordRight, "|日本語 text", "日本語| text"],
  ["Ctrl+W deletes back to whitespace", deleteWordBackward, "npm run test:unit|", "npm run |"],
  ["Ctrl+W takes trailing spaces with the word", deleteWordBackward, "npm run  |", "npm |"],
  ["Alt+D deletes the next word", deleteWordForward, "one| two three", "one| three"],
  ["Ctrl+K to the end of the line", killToLineEnd, "one t|wo\nthree", "one t|\nthree"],
  ["Ctrl+K at a line end joins the next line", killToLineEnd, "one|\ntwo", "one|two"],
  ["Ctrl+U to the start of the line", killToLineStart, "one\ntwo th|ree", "one\n|ree"],
  ["up keeps the column", moveUp, "abcdef\nab|c", "ab|cdef\nabc"],
  ["up to a shorter line ends it", moveUp, "ab\nabcde|f", "ab|\nabcdef"],
  ["up on the first line: none (history)", moveUp, "ab|c\ndef", undefined],
  ["down keeps the column", moveDown, "a|bc\ndef", "abc\nd|ef"],
  ["down on the last line: none (history)", moveDown, "abc\nd|ef", undefined],
];

describe("editor", () => {
  it.each(CASES)("%s", (_name, edit, before, after) => {
    expect(show(edit(at(before)))).toBe(after);
  });

  it("inserts at the cursor and moves past the insert", () => {
    expect(show(insertText(at("he|o"), "ll"))).toBe("hell|o");
    expect(show(insertText(at("|"), "line 1\nline 2"))).toBe("line 1\nline 2|");
  });

  it("reports the cursor's line and column", () => {
    expect(cursorPosition(at("one\ntw|o\nthree"))).toEqual({ line: 1, column: 2, lines: 3 });
  });

  it("cleans inserted text: line breaks to \\n, control characters dropped, tabs kept", () => {
    expect(cleanInsertedText("a\r\nb\rc\nd")).toBe("a\nb\nc\nd");
    expect(cleanInsertedText("x\u007f\u007fy\u001b[31mz\tw")).toBe("xy[31mz\tw");
  });
});
