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
