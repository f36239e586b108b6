// The prompt line over the editor: history walking with a draft, backslash+Enter, Ctrl+D, paste.
import { describe, expect, it } from "vitest";
import type { PromptAction } from "./keys.ts";
import { PromptLine } from "./promptLine.ts";

function line(entries: string[] = []): PromptLine {
  return new PromptLine({ entries });
}

function type(prompt: PromptLine, text: string): void {
  prompt.apply({ type: "insert", text });
}

describe("PromptLine", () => {
  it("Enter hands back the text; a backslash before the cursor makes it a line break", () => {
    const prompt = line();
    type(prompt, "first\\");
    expect(prompt.apply({ type: "submit" })).toBeUndefined();
    type(prompt, "second");
    expect(prompt.apply({ type: "submit" })).toEqual({ type: "submit", text: "first\nsecond" });
  });

  it("Up walks back through the history and Down comes forward to the draft", () => {
    const prompt = line(["newest", "two\nlines", "oldest"]);
    type(prompt, "my draft");
    const walk = (action: PromptAction) => {
      prompt.apply(action);
      return prompt.text;
    };
    expect(walk({ type: "up" })).toBe("newest");
    expect(walk({ type: "up" })).toBe("two\nlines");
    // Going back, the cursor sits on the entry's first line: the next Up goes on to older entries.
    expect(prompt.state.cursor).toBe(3);
    expect(walk({ type: "up" })).toBe("oldest");
    expect(walk({ type: "up" })).toBe("oldest");
    expect(walk({ type: "down" })).toBe("two\nlines");
    // Coming forward, the cursor ends the entry: Down goes on to newer entries.
    expect(prompt.state.cursor).toBe("two\nlines".length);
    expect(walk({ type: "down" })).toBe("newest");
    expect(walk({ type: "down" })).toBe("my draft");
    expect(walk({ type: "down" })).toBe("my draft");
  });

  it("Up and Down move between the lines of a multi-line prompt before the history", () => {
    const prompt = line(["older"]);
    type(prompt, "a\nb");
    prompt.apply({ type: "up" });
    expect(prompt.text).toBe("a\nb");
    expect(prompt.state.cursor).toBe(1);
    prompt.apply({ type: "up" });
    expect(prompt.text).toBe("older");
  });

  it("editing a recalled prompt makes it the draft; Ctrl+P/N walk the history from anywhere", () => {
    const prompt = line(["one", "two"]);
    prompt.apply({ type: "historyPrevious" });
    type(prompt, "!");
    expect(prompt.text).toBe("one!");
    prompt.apply({ type: "historyPrevious" });
    expect(prompt.text).toBe("one");
    prompt.apply({ type: "historyNext" });
    expect(prompt.text).toBe("one!");
  });

  it("Ctrl+D leaves at an empty line and deletes forward otherwise; session keys go to the caller", () => {
    const prompt = line();
    expect(prompt.apply({ type: "eof" })).toEqual({ type: "eof" });
    type(prompt, "ab");
    prompt.apply({ type: "edit", action: "lineStart" });
    expect(prompt.apply({ type: "eof" })).toBeUndefined();
    expect(prompt.text).toBe("b");
    expect(prompt.apply({ type: "cycleMode" })).toEqual({ type: "cycleMode" });
    expect(prompt.apply({ type: "interrupt" })).toEqual({ type: "interrupt" });
  });

  it("a paste goes in whole at the cursor, line breaks normalized, control characters dropped", () => {
    const prompt = line();
    type(prompt, "see: ");
    prompt.paste("a\r\nb\rc\u001b[2J");
    expect(prompt.text).toBe("see: a\nb\nc[2J");
    expect(prompt.apply({ type: "submit" })).toEqual({ type: "submit", text: "see: a\nb\nc[2J" });
  });
});
