// Steps 3 and 4: raw arguments to an object, and schema errors a model can act on, field by field.
import type { z } from "zod";

export type ParsedArguments = { ok: true; value: unknown } | { ok: false; message: string };

/** Accepts an object, or JSON text of an object (as streamed by model APIs). */
export function parseArguments(raw: unknown): ParsedArguments {
  let value = raw;
  if (typeof raw === "string") {
    const text = raw.trim() === "" ? "{}" : raw;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        message: `the arguments are not valid JSON (${detail}). Send the arguments as one JSON object that matches the tool's schema.`,
      };
    }
  }
  if (value === undefined || value === null) value = {};
  if (typeof value !== "object" || Array.isArray(value)) {
    return {
      ok: false,
      message: `the arguments must be a JSON object, not ${Array.isArray(value) ? "an array" : typeof value}.`,
    };
  }
  return { ok: true, value };
}

function fieldName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(input)";
  return path
    .map((key, index) =>
      typeof key === "number" ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`,
    )
    .join("");
}

/** "InputValidationError: Read: `file_path`: expected string, received number; ..." */
export function formatSchemaError(toolName: string, error: z.ZodError): string {
  const problems = error.issues.map((issue) => {
    const extra =
      issue.code === "unrecognized_keys" ? ` (${(issue as { keys?: string[] }).keys?.join(", ")})` : "";
    return `\`${fieldName(issue.path)}\`: ${issue.message}${extra}`;
  });
  return `InputValidationError: ${toolName} was called with invalid arguments.\n- ${problems.join("\n- ")}\nFix these fields and call it again.`;
}
