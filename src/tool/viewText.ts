// A tool view as plain lines: for `keel run --verbose`, the line-based approval prompt and logs.
import type { ToolView } from "./Tool.ts";

/** A view as plain lines, at most `maxLines` of them. */
export function viewText(view: ToolView, maxLines = 10): string {
  let text: string;
  switch (view.kind) {
    case "text":
    case "progress":
      text = view.text;
      break;
    case "command":
      text = `$ ${view.command}${view.output ? `\n${view.output}` : ""}${view.exitCode ? `\n(exit code ${view.exitCode})` : ""}`;
      break;
    case "diff":
      text = `${view.summary ?? view.path}\n${view.patch}`;
      break;
    case "list":
      text = [...(view.title ? [view.title] : []), ...view.items.map((item) => `- ${item}`)].join("\n");
      break;
  }
  const lines = text.replace(/\s+$/, "").split("\n");
  if (lines.length <= maxLines) return lines.join("\n");
  return [...lines.slice(0, maxLines), `… ${lines.length - maxLines} more lines`].join("\n");
}
