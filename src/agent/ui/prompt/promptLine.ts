// The prompt line: the editor state, the walk through the history, and what the keys do to them.
// Actions that concern the session (send, stop, leave, change mode) are handed back to the caller.
import {
  cleanInsertedText,
  deleteBackward,
  deleteForward,
  deleteWordBackward,
  deleteWordForward,
  type EditorState,
  EMPTY_EDITOR,
  editorWith,
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
import type { EditAction, PromptAction } from "./keys.ts";

const EDITS: Record<EditAction, (state: EditorState) => EditorState> = {
  backspace: deleteBackward,
  delete: deleteForward,
  left: moveLeft,
  right: moveRight,
  lineStart: moveLineStart,
  lineEnd: moveLineEnd,
  wordLeft: moveWordLeft,
  wordRight: moveWordRight,
  deleteWordBackward,
  deleteWordForward,
  killToLineEnd,
  killToLineStart,
};

/** What the caller does after an action: send this text, or a session action; undefined: nothing. */
export type LineOutcome =
  | { type: "submit"; text: string }
  | { type: "interrupt" }
  | { type: "eof" }
  | { type: "cycleMode" }
  | { type: "escape" };

export interface HistorySource {
  /** Newest first. */
  readonly entries: readonly string[];
}

export class PromptLine {
  #state: EditorState = EMPTY_EDITOR;
  readonly #history: HistorySource;
  /** While walking the history: which entry is shown, and the draft to come back to. */
  #browsing: { index: number; draft: EditorState } | undefined;

  constructor(history: HistorySource) {
    this.#history = history;
  }

  get state(): EditorState {
    return this.#state;
  }

  get text(): string {
    return this.#state.text;
  }

  set(state: EditorState): void {
    this.#state = state;
    this.#browsing = undefined;
  }

  clear(): void {
    this.set(EMPTY_EDITOR);
  }

  /** Pasted text goes in as it is, line breaks included: one prompt. */
  paste(text: string): void {
    this.set(insertText(this.#state, cleanInsertedText(text)));
  }

  apply(action: PromptAction): LineOutcome | undefined {
    switch (action.type) {
      case "insert":
        this.set(insertText(this.#state, cleanInsertedText(action.text)));
        return undefined;
      case "edit":
        this.set(EDITS[action.action](this.#state));
        return undefined;
      case "newline":
        this.set(insertText(this.#state, "\n"));
        return undefined;
      case "submit":
        return this.#submit();
      case "up": {
        const moved = moveUp(this.#state);
        if (moved) this.#state = moved;
        else this.#walk(1);
        return undefined;
      }
      case "down": {
        const moved = moveDown(this.#state);
        if (moved) this.#state = moved;
        else this.#walk(-1);
        return undefined;
      }
      case "historyPrevious":
        this.#walk(1);
        return undefined;
      case "historyNext":
        this.#walk(-1);
        return undefined;
      case "eof":
        if (this.#state.text === "") return { type: "eof" };
        this.set(deleteForward(this.#state));
        return undefined;
      case "interrupt":
      case "cycleMode":
      case "escape":
        return { type: action.type };
      case "complete":
        // Completion needs the folders: the controller does it.
        return undefined;
    }
  }

  /** `\` right before the cursor turns Enter into a line break; otherwise the text is sent. */
  #submit(): LineOutcome | undefined {
    const { text, cursor } = this.#state;
    if (cursor > 0 && text[cursor - 1] === "\\") {
      this.set({ text: `${text.slice(0, cursor - 1)}\n${text.slice(cursor)}`, cursor });
      return undefined;
    }
    return { type: "submit", text };
  }

  /** Older (+1) or newer (-1) history entry; past the newest, the draft comes back. */
  #walk(step: 1 | -1): void {
    const entries = this.#history.entries;
    const current = this.#browsing?.index ?? -1;
    const next = current + step;
    if (next >= entries.length || next < -1) return;
    const draft = this.#browsing?.draft ?? this.#state;
    if (next === -1) {
      this.#state = draft;
      this.#browsing = undefined;
      return;
    }
    // Going back, the cursor ends the entry's first line, so another Up goes further back at once;
    // coming forward it ends the entry, so another Down goes on to newer ones.
    const entry = entries[next] ?? "";
    const firstLineEnd = entry.indexOf("\n");
    this.#state = editorWith(entry, step === 1 && firstLineEnd !== -1 ? firstLineEnd : entry.length);
    this.#browsing = { index: next, draft };
  }
}
