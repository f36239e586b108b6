// Steps 3 and 4: raw arguments to an object, and schema errors a model can act on, field by field.
import type * as z from "zod";
import { clipForEcho } from "../tool/errors.ts";

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

/** Problems listed at most; unknown field names named at most (a model sent thousands once). */
const MAX_PROBLEMS = 20;
const MAX_KEYS = 20;
const MAX_PROBLEM_CHARS = 300;

/** Zod's unrecognized_keys message names every key; this names a few, clipped, and counts the rest. */
function unknownKeys(keys: readonly string[]): string {
  const named = keys.slice(0, MAX_KEYS).map((key) => JSON.stringify(clipForEcho(key, 60)));
  const more = keys.length > MAX_KEYS ? ` and ${keys.length - MAX_KEYS} more` : "";
  return `unknown field${keys.length === 1 ? "" : "s"} ${named.join(", ")}${more}; remove ${keys.length === 1 ? "it" : "them"}`;
}

/**
 * "InputValidationError: Read: `file_path`: expected string, received number; ..." At most 20 problems,
 * each at most ~300 characters, so an input with thousands of stray keys or bad items gets a short answer.
 */
export function formatSchemaError(toolName: string, error: z.ZodError): string {
  const problems = error.issues.slice(0, MAX_PROBLEMS).map((issue) => {
    const message =
      issue.code === "unrecognized_keys" ? unknownKeys((issue as { keys: string[] }).keys) : issue.message;
    return clipForEcho(`\`${fieldName(issue.path)}\`: ${message}`, MAX_PROBLEM_CHARS);
  });
  const more = error.issues.length - problems.length;
  if (more > 0) problems.push(`and ${more} more problem${more === 1 ? "" : "s"}`);
  return `InputValidationError: ${toolName} was called with invalid arguments.\n- ${problems.join("\n- ")}\nFix these fields and call it again.`;
}
