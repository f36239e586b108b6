// An MCP server's form (elicitation) on a plain terminal: the server's message, then one line per field.
// "n" at the first question declines; closed input or a cancelled call cancels.
import type { ElicitationAnswer, ElicitationRequest } from "../../pipeline/services.ts";
import { type FormField, FormFiller } from "./formFields.ts";
import type { LineReader } from "./lineReader.ts";

const MAX_TRIES = 3;

function describeField(field: FormField): string {
  const lines = [
    `\n${field.label}${field.required ? "" : " (optional)"}${field.description ? `: ${field.description}` : ""}`,
  ];
  for (const [index, choice] of (field.choices ?? []).entries())
    lines.push(`  ${index + 1}  ${choice.title}`);
  if (field.multiple) lines.push("  (one or more numbers, separated by commas)");
  return `${lines.join("\n")}\n`;
}

export async function askFormOnTerminal(
  lines: LineReader,
  write: (text: string) => void,
  request: ElicitationRequest,
): Promise<ElicitationAnswer> {
  write(`\nMCP server "${request.serverName}" asks for input:\n${request.message}\n`);
  write("Answer it? [y/n] ");
  const start = await lines.next(request.signal);
  if (start === undefined) return { action: "cancel" };
  if (!/^y(es)?$/i.test(start.trim())) return { action: "decline" };
  const form = new FormFiller(request);
  for (let field = form.current; field; field = form.current) {
    write(describeField(field));
    let tries = 0;
    for (; form.current === field && tries < MAX_TRIES; tries++) {
      write(`${field.default === undefined ? "" : `[${String(field.default)}] `}> `);
      const line = await lines.next(request.signal);
      if (line === undefined) return { action: "cancel" };
      const { problem } = form.give(line);
      if (problem) write(`${problem}\n`);
    }
    if (form.current === field) return { action: "decline" };
  }
  return form.answer();
}
