// Schema pieces tools share. Models often send numbers and booleans as strings ("5", "true"); those are
// accepted, and the JSON Schema the model sees still says integer / boolean.
import * as z from "zod";

export function lenientInteger(description: string) {
  return z
    .preprocess(
      (value) => (typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
      z.number().int().min(0),
    )
    .optional()
    .describe(description);
}

export function lenientBoolean(description: string) {
  return z
    .preprocess((value) => (value === "true" ? true : value === "false" ? false : value), z.boolean())
    .optional()
    .describe(description);
}
