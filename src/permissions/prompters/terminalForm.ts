// An MCP server's form (elicitation) on a plain terminal: the server's message, then one line per field.
// Choices are numbered; an empty line takes the default, or skips an optional field; "n" at the first
// question declines. Closed input or a cancelled call cancels; nothing is ever filled in by guess.
import type { ElicitationAnswer, ElicitationRequest } from "../../pipeline/services.ts";
import type { LineReader } from "./lineReader.ts";

type Field = Record<string, unknown>;
type Value = string | number | boolean | string[];

const MAX_TRIES = 3;

function choicesOf(field: Field): { value: string; title: string }[] | undefined {
  const items = (field.items ?? {}) as Field;
  const titled = (field.oneOf ?? items.anyOf) as { const: string; title?: string }[] | undefined;
  if (Array.isArray(titled))
    return titled.map((choice) => ({ value: choice.const, title: choice.title ?? choice.const }));
  const plain = (field.enum ?? items.enum) as string[] | undefined;
  if (!Array.isArray(plain)) return undefined;
  const names = Array.isArray(field.enumNames) ? (field.enumNames as string[]) : [];
  return plain.map((value, index) => ({ value, title: names[index] ?? value }));
}

/** The typed line as the field's value; undefined when it does not fit (asked again). */
export function parseFieldValue(field: Field, line: string): Value | undefined {
  const text = line.trim();
  const choices = choicesOf(field);
  const pick = (part: string) => {
    const index = Number(part);
    if (Number.isInteger(index) && index >= 1 && choices && index <= choices.length)
      return choices[index - 1]!.value;
    return choices?.find((choice) => choice.value.toLowerCase() === part.toLowerCase())?.value;
  };
  if (field.type === "array") {
    const picked = text.split(",").map((part) => pick(part.trim()));
    return picked.every((value) => value !== undefined) ? (picked as string[]) : undefined;
  }
  if (choices) return pick(text);
  if (field.type === "boolean") {
    if (/^(y|yes|true)$/i.test(text)) return true;
    if (/^(n|no|false)$/i.test(text)) return false;
    return undefined;
  }
  if (field.type === "number" || field.type === "integer") {
    const number = Number(text);
    if (text === "" || !Number.isFinite(number)) return undefined;
    if (field.type === "integer" && !Number.isInteger(number)) return undefined;
    return number;
  }
  return text;
}

export async function askFormOnTerminal(
  lines: LineReader,
  write: (text: string) => void,
  request: ElicitationRequest,
): Promise<ElicitationAnswer> {
  const { properties, required = [] } = request.requestedSchema;
  write(`\nMCP server "${request.serverName}" asks for input:\n${request.message}\n`);
  write("Answer it? [y/n] ");
  const start = await lines.next(request.signal);
  if (start === undefined) return { action: "cancel" };
  if (!/^y(es)?$/i.test(start.trim())) return { action: "decline" };
  const content: Record<string, Value> = {};
  for (const [key, field] of Object.entries(properties)) {
    const choices = choicesOf(field);
    const label = typeof field.title === "string" ? field.title : key;
    write(
      `\n${label}${required.includes(key) ? "" : " (optional)"}${typeof field.description === "string" ? `: ${field.description}` : ""}\n`,
    );
    for (const [index, choice] of (choices ?? []).entries()) write(`  ${index + 1}  ${choice.title}\n`);
    if (field.type === "array") write("  (one or more numbers, separated by commas)\n");
    const fallback = field.default as Value | undefined;
    let value: Value | undefined;
    for (let tries = 0; tries < MAX_TRIES && value === undefined; tries++) {
      write(`${fallback === undefined ? "" : `[${String(fallback)}] `}> `);
      const line = await lines.next(request.signal);
      if (line === undefined) return { action: "cancel" };
      if (line.trim() === "" && (fallback !== undefined || !required.includes(key))) break;
      value = parseFieldValue(field, line);
      if (value === undefined) write("That does not fit this field; try again.\n");
    }
    value ??= fallback;
    if (value === undefined && required.includes(key)) return { action: "decline" };
    if (value !== undefined) content[key] = value;
  }
  return { action: "accept", content };
}
