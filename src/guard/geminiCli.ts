// Gemini CLI's BeforeTool hook. Its tools map onto Keel's (run_shell_command -> Bash, read_file -> Read,
// replace -> Edit, ...); rules and mode come from Keel's settings, since Gemini sends no mode. The
// answer is JSON on stdout: `{"decision": "deny", "reason"}` blocks the call and the reason goes to the
// model; `{}` leaves it to Gemini. BeforeTool runs when the call is about to execute, after Gemini's
// own confirmation, so a hook can add refusals but cannot take Gemini's own prompts away.
import { resolve } from "node:path";
import { mcpToolName } from "../mcp/names.ts";
import type { Env } from "../tool/context.ts";
import type { AgentAdapter } from "./adapter.ts";
import {
  askText,
  optionalString,
  projectDirOf,
  refusalText,
  requireAbsolutePath,
  requireObject,
  requireString,
  UnansweredEvent,
} from "./eventFields.ts";
import type { AgentCall, KeelCall, Verdict } from "./types.ts";

/** Raised by a mapper for a call Keel has no opinion on. */
class Unjudged extends Error {}

/** Raised by a mapper for input Keel cannot read (missing or unknown fields): no opinion, and a note. */
class UnreadableInput extends Unjudged {}

interface MapArgs {
  input: Record<string, unknown>;
  /** Gemini resolves relative paths against its target (project) folder. */
  root: string;
}

interface GeminiTool {
  /** Every field Gemini may send; any other means a newer shape Keel does not know. */
  fields: readonly string[];
  map(args: MapArgs): KeelCall[];
}

function text(input: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const name of names) if (typeof input[name] === "string") return input[name] as string;
  return undefined;
}

function path(args: MapArgs, ...names: string[]): string | undefined {
  const value = text(args.input, ...names);
  return value === undefined ? undefined : resolve(args.root, value);
}

function requiredPath(args: MapArgs, ...names: string[]): string {
  const value = path(args, ...names);
  if (value === undefined) throw new UnreadableInput(`no ${names[0]} in the input`);
  return value;
}

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`)\]]+/g;

const TOOLS: Record<string, GeminiTool> = {
  run_shell_command: {
    fields: ["command", "description", "dir_path", "directory", "is_background"],
    map: (args) => {
      const command = text(args.input, "command");
      if (command === undefined) throw new UnreadableInput("no command in the input");
      const dir = path(args, "dir_path", "directory");
      return [{ tool: "Bash", input: { command }, cwd: dir ?? args.root }];
    },
  },
  read_file: {
    fields: ["file_path", "absolute_path", "path", "offset", "limit", "start_line", "end_line"],
    map: (args) => [
      { tool: "Read", input: { file_path: requiredPath(args, "file_path", "absolute_path", "path") } },
    ],
  },
  write_file: {
    fields: ["file_path", "absolute_path", "content", "modified_by_user", "ai_proposed_content"],
    map: (args) => [
      {
        tool: "Write",
        input: {
          file_path: requiredPath(args, "file_path", "absolute_path"),
          content: text(args.input, "content") ?? "",
        },
      },
    ],
  },
  replace: {
    fields: [
      "file_path",
      "absolute_path",
      "old_string",
      "new_string",
      "expected_replacements",
      "allow_multiple",
      "instruction",
      "modified_by_user",
      "ai_proposed_content",
    ],
    map: (args) => {
      const expected = args.input.expected_replacements;
      const many = args.input.allow_multiple === true || (typeof expected === "number" && expected > 1);
      return [
        {
          tool: "Edit",
          input: {
            file_path: requiredPath(args, "file_path", "absolute_path"),
            old_string: text(args.input, "old_string") ?? "",
            new_string: text(args.input, "new_string") ?? "",
            ...(many ? { replace_all: true } : {}),
          },
        },
      ];
    },
  },
  glob: {
    fields: ["pattern", "dir_path", "path", "case_sensitive", "respect_git_ignore", "respect_gemini_ignore"],
    map: (args) => {
      const pattern = text(args.input, "pattern");
      if (pattern === undefined) throw new UnreadableInput("no pattern in the input");
      return [{ tool: "Glob", input: { pattern, path: path(args, "dir_path", "path") ?? args.root } }];
    },
  },
  list_directory: {
    fields: ["dir_path", "path", "ignore", "file_filtering_options", "respect_git_ignore"],
    map: (args) => [{ tool: "LS", input: { path: requiredPath(args, "dir_path", "path") } }],
  },
  web_fetch: {
    fields: ["prompt", "url"],
    map: (args) => {
      const prompt = text(args.input, "prompt") ?? "";
      const direct = text(args.input, "url");
      const urls = direct ? [direct] : [...new Set(prompt.match(URL_IN_TEXT) ?? [])];
      if (urls.length === 0) throw new UnreadableInput("no URL in the prompt");
      return urls.map((url) => ({ tool: "WebFetch", input: { url, prompt: prompt || url } }));
    },
  },
  read_many_files: {
    fields: ["include", "exclude", "recursive", "useDefaultExcludes", "file_filtering_options", "paths"],
    map: (args) => {
      const include = args.input.include ?? args.input.paths;
      if (
        !Array.isArray(include) ||
        include.length === 0 ||
        !include.every((entry) => typeof entry === "string")
      )
        throw new UnreadableInput("no include list in the input");
      // A plain path is a read of that file or folder; a glob pattern a search from the project folder.
      return include.map((entry: string) =>
        isGlobPattern(entry)
          ? { tool: "Glob", input: { pattern: entry, path: args.root } }
          : { tool: "Read", input: { file_path: resolve(args.root, entry) } },
      );
    },
  },
};

const WEB_SEARCH: GeminiTool = {
  fields: ["query"],
  map: (args) => {
    const query = text(args.input, "query");
    if (query === undefined) throw new UnreadableInput("no query in the input");
    return [{ tool: "WebSearch", input: { query } }];
  },
};
for (const name of ["google_web_search", "web_search"]) TOOLS[name] = WEB_SEARCH;

function isGlobPattern(path: string): boolean {
  return /[*?[\]{}]/.test(path);
}

const SEARCH: GeminiTool = {
  // Beyond where and which files: output and matching knobs that do not change what is read.
  fields: [
    "pattern",
    "dir_path",
    "path",
    "include",
    "include_pattern",
    "exclude_pattern",
    "names_only",
    "case_sensitive",
    "fixed_strings",
    "context",
    "after",
    "before",
    "no_ignore",
    "max_matches_per_file",
    "total_max_matches",
  ],
  map: (args) => {
    const pattern = text(args.input, "pattern");
    if (pattern === undefined) throw new UnreadableInput("no pattern in the input");
    const glob = text(args.input, "include", "include_pattern");
    return [
      {
        tool: "Grep",
        input: { pattern, path: path(args, "dir_path", "path") ?? args.root, ...(glob ? { glob } : {}) },
      },
    ];
  },
};
// The content search tool has been renamed across releases.
for (const name of ["search_file_content", "grep_search", "grep"]) TOOLS[name] = SEARCH;

/** An MCP tool, named from `mcp_context` (or already `mcp__server__tool`). */
function mcpCalls(
  event: Record<string, unknown>,
  toolName: string,
  input: Record<string, unknown>,
): KeelCall[] {
  const context = event.mcp_context;
  if (context !== null && typeof context === "object" && !Array.isArray(context)) {
    const server = optionalString(context as Record<string, unknown>, "server_name");
    const tool = optionalString(context as Record<string, unknown>, "tool_name");
    if (server && tool) return [{ tool: mcpToolName(server, tool), input }];
  }
  if (toolName.startsWith("mcp__")) return [{ tool: toolName, input }];
  throw new Unjudged(`Keel does not judge ${toolName} calls`);
}

function mapCalls(
  event: Record<string, unknown>,
  toolName: string,
  input: Record<string, unknown>,
  root: string,
) {
  const known = Object.hasOwn(TOOLS, toolName) ? TOOLS[toolName] : undefined;
  if (!known) return mcpCalls(event, toolName, input);
  const unknown = Object.keys(input).filter((field) => !known.fields.includes(field));
  if (unknown.length > 0)
    throw new UnreadableInput(`${toolName} input has fields Keel does not know: ${unknown.join(", ")}`);
  return known.map({ input, root });
}

function toCall(event: Record<string, unknown>, env: Env) {
  const hookEvent = requireString(event, "hook_event_name");
  if (hookEvent !== "BeforeTool")
    throw new UnansweredEvent(`unknown event ${hookEvent} (keel hook gemini-cli answers BeforeTool)`);
  const toolName = requireString(event, "tool_name");
  const toolInput = requireObject(event, "tool_input");
  const cwd = requireAbsolutePath(event, "cwd");
  const projectDir = projectDirOf(cwd, env.GEMINI_PROJECT_DIR ?? env.CLAUDE_PROJECT_DIR);
  let calls: KeelCall[] = [];
  let unjudged: string | undefined;
  let note: string | undefined;
  try {
    calls = mapCalls(event, toolName, toolInput, projectDir);
  } catch (error) {
    if (!(error instanceof Unjudged)) throw error;
    unjudged = error.message;
    if (error instanceof UnreadableInput) note = `${toolName}: ${error.message}`;
  }
  const call: AgentCall = {
    agent: "gemini-cli",
    event: hookEvent,
    agentTool: toolName,
    agentInput: toolInput,
    calls,
    ...(unjudged === undefined ? {} : { unjudged }),
    ...(note === undefined ? {} : { unreadable: true }),
    projectDir,
    cwd,
    sessionId: optionalString(event, "session_id") ?? "unknown",
    toolUseId: "",
  };
  return { call, ...(note === undefined ? {} : { note }) };
}

function reply(_call: AgentCall, verdict: Verdict, options: { strict: boolean }): string {
  if (verdict.behavior === "allow") return JSON.stringify({ decision: "allow" });
  if (verdict.behavior === "deny") return JSON.stringify({ decision: "deny", reason: refusalText(verdict) });
  // BeforeTool has no "ask": a firm ask (every ask with strict) is a refusal the model can explain.
  if (verdict.behavior === "ask" && (options.strict || verdict.firm))
    return JSON.stringify({
      decision: "deny",
      reason: `${askText(verdict)}. Keel needs a person's approval for this call, which a Gemini CLI hook cannot ask for; ask the person to run it or to add an allow rule to Keel's settings.`,
    });
  return "{}";
}

export const geminiCliAdapter: AgentAdapter = {
  agent: "gemini-cli",
  events: ["BeforeTool"],
  silence: "{}",
  toCall,
  reply,
};
