// Errors are data: every failure a model can cause has a code and a message telling it what to do next.

/**
 * Every code a tool call can fail with: one code per condition, its meaning here and nowhere else.
 * The message says what to do next; the code lets a program (CLI exit status, audit, clients) branch.
 */
export type ToolErrorCode =
  // The pipeline, for any tool.
  | "unknown_tool" // no tool by that name or alias in this session
  | "invalid_json" // the arguments are not parseable JSON
  | "invalid_input" // the arguments break the schema or the tool's rules for them (ranges, syntax, combinations)
  | "validation_failed" // the tool's own input check crashed, or refused without naming a code
  | "permission_denied" // a rule, the mode or the user said no (the decision records who)
  | "hook_blocked" // a PreToolUse hook blocked the call or stopped the session
  | "aborted" // the call was cancelled (user interrupt, caller's signal, an erroring sibling)
  | "timeout" // the work took longer than its time limit and was stopped
  | "invalid_output" // the tool returned output that breaks its own output schema
  | "tool_failed" // the tool failed in a way no other code names
  // Files and folders.
  | "file_not_found" // nothing (no file, no folder) at the given path
  | "is_directory" // a file was needed and the path is a folder
  | "not_a_directory" // a folder was needed and the path is a file
  | "wrong_tool" // this file is another tool's job (the message names it: NotebookEdit for .ipynb, Edit for the rest)
  | "unsupported_file" // a file or fetched document of a kind the tool cannot read (binary, device, corrupt, unknown type)
  | "too_large" // over the tool's size limit (bytes or tokens); the message says how to take a part
  | "unsupported_encoding" // the new text has characters the file's encoding cannot store
  | "not_read" // a file must be read (whole) before it is changed
  | "changed_since_read" // the file changed on disk after it was read (or while the change was written)
  | "read_only" // the file, its folder or its file system may not be written by this user
  | "file_busy" // another Keel process held the file's lock for longer than a writer waits
  | "file_exists" // creating a file that already exists and is not empty
  | "no_change" // the edit would leave the file as it is
  | "string_not_found" // old_string is not in the file
  | "not_unique" // old_string is in the file more than once and replace_all is false
  // Things a session names: tasks, agents, skills, cells, background commands, MCP servers.
  | "not_found" // no such thing by that name or id (the message lists what exists)
  | "wrong_state" // well formed, but the current state forbids it (finished agent, name in use, task move, not in plan mode)
  | "not_allowed" // the caller may never do this (a fork forking, nesting too deep, a sub-agent changing the mode, the model running a user-only skill)
  | "no_answer" // a question needs a person and nobody can answer in this session
  | "corrupt_session_data" // a session file Keel keeps (tasks, todos) cannot be read
  // What a tool needs from its surroundings.
  | "ripgrep_missing" // the bundled rg binary is not there
  | "sandbox_unavailable" // the OS sandbox is on but cannot start; the command did not run
  | "worktree_failed" // an agent's git worktree could not be made (no repository, no commit, git refused)
  | "no_agent_loop" // sub-agents need Keel's agent loop (and a fork the message that asked for it)
  | "remote_unreachable" // the remote-agent queue (Redis) cannot be reached or refused the job
  | "remote_repository" // a remote agent's commit cannot be put on a remote the workers reach
  // Language servers (the LSP tool, and diagnostics after edits).
  | "lsp_not_configured" // no language server is configured for this kind of file
  | "lsp_server_missing" // the configured server's command is not installed (the message says how)
  | "lsp_start_failed" // the server did not start or finish its handshake
  | "lsp_server_crashed" // the server exited while in use
  | "lsp_server_flood" // the server wrote more than a server ever needs to, and was stopped
  | "lsp_server_unavailable" // the server failed again after its one restart; it is off for the session
  | "lsp_request_failed" // the server answered the request with an error
  // The web.
  | "fetch_failed" // the page could not be fetched (network, invalid or looping redirects)
  | "http_error" // the server answered with an HTTP error status
  | "private_address" // the host is this machine or a private network and no rule allows it
  | "no_search_provider" // no web search provider is configured, or an unknown one is named
  | "search_failed" // the search provider's API could not be reached or refused
  // MCP servers' tools.
  | "mcp_unavailable" // the server is disabled, misconfigured or cannot connect
  | "mcp_disconnected" // the server went away during the call
  | "mcp_error" // the server answered the request with a protocol error
  | "mcp_tool_error"; // the server's tool ran and reported an error

export class ToolError extends Error {
  readonly code: ToolErrorCode;

  constructor(code: ToolErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ToolError";
    this.code = code;
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
