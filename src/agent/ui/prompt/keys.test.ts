// Key bindings of the prompt line: what Ink reports for a key, and the action it must become.
import type { Key } from "ink";
import { describe, expect, it } from "vitest";
import { NO_KEY } from "../testing/keys.ts";
import { keyActions, type PromptAction } from "./keys.ts";

const edit = (action: string): PromptAction => ({ type: "edit", action }) as PromptAction;

const CASES: Array<[string, string, Partial<Key>, PromptAction[]]> = [
  ["a letter", "a", {}, [{ type: "insert", text: "a" }]],
  ["Enter", "\r", { return: true }, [{ type: "submit" }]],
  ["Shift+Enter (kitty protocol)", "\r", { return: true, shift: true }, [{ type: "newline" }]],
  ["Alt+Enter", "\r", { return: true, meta: true }, [{ type: "newline" }]],
  ["an unknown function key is not text", "[99;9~", {}, []],
  ["Ctrl+J", "\n", {}, [{ type: "newline" }]],
  ["Backspace", "", { backspace: true }, [edit("backspace")]],
  ["Alt+Backspace", "", { backspace: true, meta: true }, [edit("deleteWordBackward")]],
  ["Delete", "", { delete: true }, [edit("delete")]],
  ["Left", "", { leftArrow: true }, [edit("left")]],
  ["Ctrl+Left", "", { leftArrow: true, ctrl: true }, [edit("wordLeft")]],
  ["Alt+Right", "", { rightArrow: true, meta: true }, [edit("wordRight")]],
  ["Home", "", { home: true }, [edit("lineStart")]],
  ["End", "", { end: true }, [edit("lineEnd")]],
  ["Up", "", { upArrow: true }, [{ type: "up" }]],
  ["Down", "", { downArrow: true }, [{ type: "down" }]],
  ["Ctrl+A", "a", { ctrl: true }, [edit("lineStart")]],
  ["Ctrl+E", "e", { ctrl: true }, [edit("lineEnd")]],
  ["Ctrl+K", "k", { ctrl: true }, [edit("killToLineEnd")]],
  ["Ctrl+U", "u", { ctrl: true }, [edit("killToLineStart")]],
  ["Ctrl+W", "w", { ctrl: true }, [edit("deleteWordBackward")]],
  ["Ctrl+P", "p", { ctrl: true }, [{ type: "historyPrevious" }]],
  ["Ctrl+N", "n", { ctrl: true }, [{ type: "historyNext" }]],
  ["Ctrl+C", "c", { ctrl: true }, [{ type: "interrupt" }]],
  ["Ctrl+D", "d", { ctrl: true }, [{ type: "eof" }]],
  ["Alt+B", "b", { meta: true }, [edit("wordLeft")]],
  ["Alt+F", "f", { meta: true }, [edit("wordRight")]],
  ["Alt+D", "d", { meta: true }, [edit("deleteWordForward")]],
  ["Shift+Tab", "", { tab: true, shift: true }, [{ type: "cycleMode" }]],
  ["Tab completes the @path being typed", "", { tab: true }, [{ type: "complete" }]],
  [
    "a Tab typed in a burst completes too",
    "@do\tgu",
    {},
    [{ type: "insert", text: "@do" }, { type: "complete" }, { type: "insert", text: "gu" }],
  ],
  ["Escape", "", { escape: true }, [{ type: "escape" }]],
  // Keys typed faster than a read arrive as one chunk of text.
  ["text then Enter", "fix it\r", {}, [{ type: "insert", text: "fix it" }, { type: "submit" }]],
  [
    "two quick backspaces",
    "hel\u007f\u007f",
    {},
    [{ type: "insert", text: "hel" }, edit("backspace"), edit("backspace")],
  ],
  ["text then Ctrl+U", "drop\u0015", {}, [{ type: "insert", text: "drop" }, edit("killToLineStart")]],
  [
    "a stray control character is dropped",
    "a\u0000b",
    {},
    [
      { type: "insert", text: "a" },
      { type: "insert", text: "b" },
    ],
  ],
];

describe("keyActions", () => {
  it.each(CASES)("%s", (_name, input, key, actions) => {
    expect(keyActions(input, { ...NO_KEY, ...key })).toEqual(actions);
  });
});
