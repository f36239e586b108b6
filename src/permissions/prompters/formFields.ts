// The fields of a form an MCP server asks the person to fill in (elicitation), one at a time, for the
// prompters that ask on a terminal (line by line, or the terminal UI's input line). Choices are numbered;
// an empty answer takes the default, or skips an optional field; nothing is ever filled in by guess.
import type { ElicitationAnswer, ElicitationRequest } from "../../pipeline/services.ts";

type Schema = Record<string, unknown>;
export type FieldValue = string | number | boolean | string[];

export interface FormField {
  key: string;
  label: string;
  description?: string;
  required: boolean;
  choices?: { value: string; title: string }[];
  /** Several choices may be picked (comma-separated numbers). */
  multiple: boolean;
  default?: FieldValue;
  schema: Schema;
}

function choicesOf(schema: Schema): { value: string; title: string }[] | undefined {
  const items = (schema.items ?? {}) as Schema;
  const titled = (schema.oneOf ?? items.anyOf) as { const: string; title?: string }[] | undefined;
  if (Array.isArray(titled))
    return titled.map((choice) => ({ value: choice.const, title: choice.title ?? choice.const }));
  const plain = (schema.enum ?? items.enum) as string[] | undefined;
  if (!Array.isArray(plain)) return undefined;
  const names = Array.isArray(schema.enumNames) ? (schema.enumNames as string[]) : [];
  return plain.map((value, index) => ({ value, title: names[index] ?? value }));
}

export function formFields(request: ElicitationRequest): FormField[] {
  const required = request.requestedSchema.required ?? [];
  return Object.entries(request.requestedSchema.properties).map(([key, schema]) => {
    const choices = choicesOf(schema);
    return {
      key,
      label: typeof schema.title === "string" ? schema.title : key,
      ...(typeof schema.description === "string" ? { description: schema.description } : {}),
      required: required.includes(key),
      ...(choices ? { choices } : {}),
      multiple: schema.type === "array",
      ...(schema.default === undefined ? {} : { default: schema.default as FieldValue }),
      schema,
    };
  });
}

/** The typed line as the field's value; undefined when it does not fit (asked again). */
export function parseFieldValue(field: FormField, line: string): FieldValue | undefined {
  const text = line.trim();
  const { choices } = field;
  const pick = (part: string) => {
    const index = Number(part);
    if (Number.isInteger(index) && index >= 1 && choices && index <= choices.length)
      return choices[index - 1]!.value;
    return choices?.find((choice) => choice.value.toLowerCase() === part.toLowerCase())?.value;
  };
  if (field.multiple) {
    const picked = text.split(",").map((part) => pick(part.trim()));
    return picked.every((value) => value !== undefined) ? (picked as string[]) : undefined;
  }
  if (choices) return pick(text);
  const type = field.schema.type;
  if (type === "boolean") {
    if (/^(y|yes|true)$/i.test(text)) return true;
    if (/^(n|no|false)$/i.test(text)) return false;
    return undefined;
  }
  if (type === "number" || type === "integer") {
    const number = Number(text);
    if (text === "" || !Number.isFinite(number)) return undefined;
    if (type === "integer" && !Number.isInteger(number)) return undefined;
    return number;
  }
  return text;
}

/** Filling a form one answer at a time. */
export class FormFiller {
  readonly fields: FormField[];
  readonly #content: Record<string, FieldValue> = {};
  #index = 0;

  constructor(request: ElicitationRequest) {
    this.fields = formFields(request);
  }

  /** The field waiting for an answer; undefined when the form is complete. */
  get current(): FormField | undefined {
    return this.fields[this.#index];
  }

  /** Takes one typed answer for the current field; a problem to show when it does not fit. */
  give(line: string): { problem?: string } {
    const field = this.current;
    if (!field) return {};
    if (line.trim() === "") {
      if (field.default !== undefined) this.#content[field.key] = field.default;
      else if (field.required) return { problem: `${field.label} needs an answer.` };
      this.#index++;
      return {};
    }
    const value = parseFieldValue(field, line);
    if (value === undefined)
      return {
        problem: field.choices
          ? `Answer with ${field.multiple ? "one or more numbers, separated by commas" : "the number of a choice"}.`
          : `That is not a ${String(field.schema.type ?? "text")} value.`,
      };
    this.#content[field.key] = value;
    this.#index++;
    return {};
  }

  answer(): ElicitationAnswer {
    return { action: "accept", content: { ...this.#content } };
  }
}
