// A list the person picks one line from (/resume): Up/Down (Ctrl+P/N) move the highlight, Enter picks it,
// a number picks that line, Esc leaves it without a choice.
import type { Key } from "ink";
import type { PickItem } from "./slashCommands.ts";

export interface PickerState {
  title: string;
  items: readonly PickItem[];
  selected: number;
}

export type PickerKeyResult =
  | { type: "select"; index: number }
  | { type: "pick"; index: number }
  | { type: "cancel" }
  | undefined;

export function pickerKey(input: string, key: Key, picker: PickerState): PickerKeyResult {
  const last = picker.items.length - 1;
  const select = (index: number): PickerKeyResult => ({
    type: "select",
    index: Math.max(0, Math.min(last, index)),
  });
  if (key.upArrow || (key.ctrl && input === "p")) return select(picker.selected - 1);
  if (key.downArrow || (key.ctrl && input === "n") || (key.tab && !key.shift))
    return select(picker.selected + 1);
  if (key.return) return { type: "pick", index: picker.selected };
  if (key.escape || (key.ctrl && input === "c")) return { type: "cancel" };
  const number = /^[1-9][0-9]?$/.test(input) ? Number(input) - 1 : -1;
  if (!key.ctrl && !key.meta && number >= 0 && number <= last) return { type: "pick", index: number };
  return undefined;
}
