// Errors are data: every failure a model can cause has a code and a message telling it what to do next.

export type ToolErrorCode =
  | "unknown_tool"
  | "aborted"
  | "invalid_json"
  | "invalid_input"
  | "validation_failed"
  | "permission_denied"
  | "hook_blocked"
  | "tool_failed"
  | "invalid_output"
  | "timeout"
  | "not_found"
  | "not_read"
  | "changed_since_read"
  | "no_change"
  | "not_unique"
  | "too_large"
  | "unsupported_file"
  | "outside_working_dirs"
  | (string & {});

export class ToolError extends Error {
  readonly code: ToolErrorCode;
  /** Text for a person, when it should differ from what the model is told. */
  readonly userMessage: string | undefined;

  constructor(code: ToolErrorCode, message: string, options?: { userMessage?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ToolError";
    this.code = code;
    this.userMessage = options?.userMessage;
  }
}

/** Thrown by buildTool for a definition that cannot work; a programming error, reported at build time. */
export class ToolDefinitionError extends Error {
  constructor(toolName: string, problem: string) {
    super(`Invalid tool definition "${toolName}": ${problem}`);
    this.name = "ToolDefinitionError";
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

/** An error message quotes at most this much of an input it refuses (a 2 MiB path must not come back twice). */
export const MAX_ECHO_CHARS = 1_024;

/** At most `max` characters of `text`, saying how much was left out. */
export function clipForEcho(text: string, max = MAX_ECHO_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… [${text.length - max} more characters not shown]`;
}

function longStrings(value: unknown, into: Set<string>, depth = 0): Set<string> {
  if (typeof value === "string") {
    if (value.length > MAX_ECHO_CHARS) into.add(value);
  } else if (value !== null && typeof value === "object" && depth < 8) {
    for (const item of Object.values(value)) longStrings(item, into, depth + 1);
  }
  return into;
}

/** The message with every quote of a long input string clipped to ~1 KB. */
export function clipEchoedInput(message: string, input: unknown): string {
  if (message.length <= MAX_ECHO_CHARS) return message;
  let clipped = message;
  // Longest first, so a value that contains another is clipped whole.
  const values = [...longStrings(input, new Set())].sort((a, b) => b.length - a.length);
  for (const value of values)
    if (clipped.includes(value)) clipped = clipped.split(value).join(clipForEcho(value));
  return clipped;
}
