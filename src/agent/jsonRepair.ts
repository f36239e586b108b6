// Tool arguments as streamed by models: parsed as JSON, or repaired when the damage is harmless and
// common (code fences, trailing commas, an object sent as a JSON string). Truncated arguments are never
// completed (a cut-off command must not run); they stay raw text and the pipeline answers the model
// with an invalid_json error it can act on.

export type ArgumentsParse =
  | { ok: true; value: Record<string, unknown>; repaired: boolean }
  | { ok: false; raw: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function tryParse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const REPAIRS: Array<(text: string) => string> = [
  (text) => text.replace(/^\s*```(?:json)?\s*/i, "").replace(/\s*```\s*$/, ""),
  (text) => text.replace(/,\s*([}\]])/g, "$1"),
];

/** Local models sometimes send the object JSON-encoded inside a string: `"{\"a\": 1}"`. */
function unwrapEncoded(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "string" ? tryParse(value) : undefined;
  } catch {
    return undefined;
  }
}

export function parseToolArguments(raw: string): ArgumentsParse {
  if (raw.trim() === "") return { ok: true, value: {}, repaired: false };
  const direct = tryParse(raw);
  if (direct) return { ok: true, value: direct, repaired: false };
  const unwrapped = unwrapEncoded(raw);
  if (unwrapped) return { ok: true, value: unwrapped, repaired: true };
  let text = raw;
  for (const repair of REPAIRS) {
    text = repair(text);
    const value = tryParse(text);
    if (value) return { ok: true, value, repaired: true };
  }
  return { ok: false, raw };
}

/** True once the text is one complete JSON object: nothing valid can follow it, so the call may start. */
export function isCompleteJsonObject(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.startsWith("{") && trimmed.endsWith("}") && tryParse(trimmed) !== undefined;
}
