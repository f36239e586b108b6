// Keys of the prompt line, from what Ink reports (input text and key flags) to named actions. A table
// of the usual shell and editor keys; keys.test.ts holds one row per binding.
import type { Key } from "ink";

export type EditAction =
  | "backspace"
  | "delete"
  | "left"
  | "right"
  | "lineStart"
  | "lineEnd"
  | "wordLeft"
  | "wordRight"
  | "deleteWordBackward"
  | "deleteWordForward"
  | "killToLineEnd"
  | "killToLineStart";

export type PromptAction =
  | { type: "insert"; text: string }
  | { type: "edit"; action: EditAction }
  /** A line break inside the prompt (Shift+Enter, Alt+Enter, Ctrl+J). */
  | { type: "newline" }
  /** Enter: sends the prompt, unless the character before the cursor is `\` (then a line break). */
  | { type: "submit" }
  /** Up/Down: the line above or below, or the previous/next prompt of the history at the edge. */
  | { type: "up" }
  | { type: "down" }
  | { type: "historyPrevious" }
  | { type: "historyNext" }
  | { type: "cycleMode" }
  /** Tab: complete the `@path` being typed. */
  | { type: "complete" }
  /** Ctrl+C: stop the agent, else clear the prompt, else (twice) leave. */
  | { type: "interrupt" }
  /** Ctrl+D: leave at an empty prompt, else delete forward. */
  | { type: "eof" }
  | { type: "escape" };

const CTRL_ACTIONS: Record<string, PromptAction> = {
  a: { type: "edit", action: "lineStart" },
  e: { type: "edit", action: "lineEnd" },
  b: { type: "edit", action: "left" },
  f: { type: "edit", action: "right" },
  k: { type: "edit", action: "killToLineEnd" },
  u: { type: "edit", action: "killToLineStart" },
  w: { type: "edit", action: "deleteWordBackward" },
  h: { type: "edit", action: "backspace" },
  j: { type: "newline" },
  p: { type: "historyPrevious" },
  n: { type: "historyNext" },
  c: { type: "interrupt" },
  d: { type: "eof" },
};

const META_ACTIONS: Record<string, PromptAction> = {
  b: { type: "edit", action: "wordLeft" },
  f: { type: "edit", action: "wordRight" },
  d: { type: "edit", action: "deleteWordForward" },
};

/** What is left of a function key Ink does not know: never typed text. */
const UNKNOWN_SEQUENCE = /^\[[0-9;]*[~u]$/;

/**
 * A burst of typed text (keys faster than a read arrive together, as with `tmux send-keys`): printable
 * runs are inserted, and control characters inside it act as their keys (Enter, Backspace, Ctrl+U...).
 */
function textActions(input: string): PromptAction[] {
  const actions: PromptAction[] = [];
  let run = "";
  const flush = () => {
    if (run) actions.push({ type: "insert", text: run });
    run = "";
  };
  for (const char of input) {
    const code = char.charCodeAt(0);
    if (code >= 0x20 && code !== 0x7f) {
      run += char;
      continue;
    }
    flush();
    // A Tab typed in a burst of keys completes, as a Tab pressed alone does (a paste keeps its tabs).
    if (char === "\t") {
      actions.push({ type: "complete" });
      continue;
    }
    if (char === "\r") actions.push({ type: "submit" });
    else if (char === "\n") actions.push({ type: "newline" });
    else if (char === "\x7f" || char === "\b") actions.push({ type: "edit", action: "backspace" });
    else if (code >= 1 && code <= 26) {
      const action = CTRL_ACTIONS[String.fromCharCode(code + 96)];
      if (action) actions.push(action);
    }
  }
  flush();
  return actions;
}

/**
 * Shift+Enter is told from Enter only where the terminal reports it: the kitty keyboard protocol (which
 * Ink turns on where the terminal has it) sends ESC [13;2u, which Ink reads as return with shift. Other
 * terminals (and tmux) send a plain Enter; \ then Enter, Alt+Enter and Ctrl+J work everywhere.
 */
export function keyActions(input: string, key: Key): PromptAction[] {
  if (key.return) {
    if (key.shift || key.meta) return [{ type: "newline" }];
    return [{ type: "submit" }];
  }
  if (key.tab && key.shift) return [{ type: "cycleMode" }];
  if (key.tab) return [{ type: "complete" }];
  if (key.escape) return [{ type: "escape" }];
  if (key.backspace)
    return [{ type: "edit", action: key.meta || key.ctrl ? "deleteWordBackward" : "backspace" }];
  if (key.delete) return [{ type: "edit", action: key.meta || key.ctrl ? "deleteWordForward" : "delete" }];
  if (key.leftArrow) return [{ type: "edit", action: key.meta || key.ctrl ? "wordLeft" : "left" }];
  if (key.rightArrow) return [{ type: "edit", action: key.meta || key.ctrl ? "wordRight" : "right" }];
  if (key.upArrow) return [{ type: "up" }];
  if (key.downArrow) return [{ type: "down" }];
  if (key.home) return [{ type: "edit", action: "lineStart" }];
  if (key.end) return [{ type: "edit", action: "lineEnd" }];
  if (key.ctrl) {
    const action = CTRL_ACTIONS[input.toLowerCase()];
    return action ? [action] : [];
  }
  if (key.meta) {
    const action = META_ACTIONS[input.toLowerCase()];
    return action ? [action] : [];
  }
  if (key.tab || key.pageUp || key.pageDown) return [];
  if (UNKNOWN_SEQUENCE.test(input)) return [];
  return textActions(input);
}
