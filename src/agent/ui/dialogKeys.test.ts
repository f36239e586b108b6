// Keys of the approval dialog against a three-choice question.
import type { Key } from "ink";
import { describe, expect, it } from "vitest";
import type { ApprovalPrompt } from "../../permissions/prompters/approvalOptions.ts";
import { dialogKey } from "./dialogKeys.ts";

const prompt: ApprovalPrompt = {
  title: "Edit(/p/a.ts)",
  preview: { kind: "text", text: "" },
  reason: "",
  options: [
    { key: "1", letter: "y", label: "Yes", effect: { kind: "once" } },
    { key: "2", letter: "a", label: "Yes, allow all edits", effect: { kind: "acceptEdits" } },
    { key: "3", letter: "n", label: "No", effect: { kind: "no" } },
  ],
};

const key = (flags: Partial<Key>) => flags as Key;

describe("dialogKey", () => {
  it.each([
    ["Down", "", { downArrow: true }, 0, { type: "select", index: 1 }],
    ["Down at the last", "", { downArrow: true }, 2, { type: "select", index: 2 }],
    ["Up", "", { upArrow: true }, 1, { type: "select", index: 0 }],
    ["Tab", "", { tab: true }, 0, { type: "select", index: 1 }],
    ["Enter picks the highlight", "", { return: true }, 1, { type: "answer", choice: "2" }],
    ["a number", "3", {}, 0, { type: "answer", choice: "3" }],
    ["a letter", "y", {}, 2, { type: "answer", choice: "y" }],
    ["Esc says no", "", { escape: true }, 0, { type: "answer", choice: "n" }],
    ["Shift+Tab allows all edits", "", { tab: true, shift: true }, 0, { type: "answer", choice: "2" }],
    ["Ctrl+letters are not answers", "y", { ctrl: true }, 0, undefined],
  ] as const)("%s", (_name, input, flags, selected, result) => {
    expect(dialogKey(input, key(flags), { prompt, selected })).toEqual(result);
  });

  it("Shift+Tab does nothing where allowing all edits is not offered", () => {
    const plain = { ...prompt, options: [prompt.options[0]!, prompt.options[2]!] };
    expect(dialogKey("", key({ tab: true, shift: true }), { prompt: plain, selected: 0 })).toBeUndefined();
  });
});
