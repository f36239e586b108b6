// Keys of the approval dialog: Up/Down (or Ctrl+P/N, Tab) move the highlight, Enter picks it, a number
// or letter picks its choice, Esc says no, Shift+Tab picks "allow all edits" where it is offered.
import type { Key } from "ink";
import type { ApprovalPrompt } from "../../permissions/prompters/approvalOptions.ts";

export type DialogKeyResult =
  | { type: "select"; index: number }
  | { type: "answer"; choice: string }
  | undefined;

export function dialogKey(
  input: string,
  key: Key,
  dialog: { prompt: ApprovalPrompt; selected: number },
): DialogKeyResult {
  const options = dialog.prompt.options;
  const select = (step: number): DialogKeyResult => ({
    type: "select",
    index: Math.max(0, Math.min(options.length - 1, dialog.selected + step)),
  });
  if (key.upArrow || (key.ctrl && input === "p")) return select(-1);
  if (key.downArrow || (key.ctrl && input === "n") || (key.tab && !key.shift)) return select(1);
  if (key.return) return { type: "answer", choice: options[dialog.selected]?.key ?? "n" };
  if (key.escape) return { type: "answer", choice: "n" };
  if (key.tab && key.shift) {
    const acceptEdits = options.find((option) => option.effect.kind === "acceptEdits");
    return acceptEdits ? { type: "answer", choice: acceptEdits.key } : undefined;
  }
  if (!key.ctrl && !key.meta && input.length === 1) return { type: "answer", choice: input };
  return undefined;
}
