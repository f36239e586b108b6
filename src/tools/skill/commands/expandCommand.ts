// Turning a custom command into the prompt that is sent: the arguments go in ($ARGUMENTS, $1..$9),
// each !`cmd` runs through the governed pipeline as a Bash call and its output takes its place, and
// each `@file` is read with the Read tool and included. `allowed-tools` holds for those calls, and is
// handed back for the turn that answers the command; a project's commands grant it only once the
// folder is trusted, like the project's own allow rules. A call that is refused stops the command:
// nothing half-expanded is sent.
import { readFile, stat } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { tokenizeSpecifier } from "../../../shell/analyze/bashRules.ts";
import type { NestedToolRunner, ToolUseContext } from "../../../tool/context.ts";
import { ToolError } from "../../../tool/errors.ts";
import { importReferences } from "../../shared/fileReferences.ts";
import { parseFrontmatter } from "../frontmatter.ts";
import type { CommandInfo } from "./discoverCommands.ts";

export interface ExpandedCommand {
  command: CommandInfo;
  prompt: string;
  /** The command's `model`, for the turn it starts. */
  model?: string;
  /** The `allowed-tools` that apply (none from an untrusted project), for the turn that answers it. */
  allowRules: string[];
}

export interface ExpandOptions {
  context: ToolUseContext;
  /** The session's nested runner; without one, a command that runs lines or includes files is refused. */
  runTool?: NestedToolRunner;
  home: string;
}

type Segment = { kind: "text"; text: string } | { kind: "bash"; command: string };

const BASH_LINE = /!`([^`\n]+)`/g;

/** The command body as text and !`cmd` pieces; arguments never create new pieces. */
function segmentsOf(body: string): Segment[] {
  const segments: Segment[] = [];
  let at = 0;
  for (const match of body.matchAll(BASH_LINE)) {
    if (match.index > at) segments.push({ kind: "text", text: body.slice(at, match.index) });
    segments.push({ kind: "bash", command: match[1]! });
    at = match.index + match[0].length;
  }
  if (at < body.length) segments.push({ kind: "text", text: body.slice(at) });
  return segments;
}

function substitute(text: string, args: string, positional: readonly string[]): string {
  return text
    .replaceAll("$ARGUMENTS", args)
    .replace(/\$([1-9])(?![0-9])/g, (_all, digit: string) => positional[Number(digit) - 1] ?? "");
}

function usesArguments(body: string): boolean {
  return body.includes("$ARGUMENTS") || /\$[1-9](?![0-9])/.test(body);
}

/** A command's `allowed-tools` as they apply: a project's only in a trusted folder. */
export function grantedRules(command: CommandInfo, context: ToolUseContext): string[] {
  return command.source === "user" || context.options.projectTrusted === true ? command.allowedTools : [];
}

/** Why a refused call was not covered by the command's own `allowed-tools`, when they were held back. */
function heldBackNote(command: CommandInfo, context: ToolUseContext): string {
  return command.allowedTools.length > 0 && grantedRules(command, context).length === 0
    ? ` (The command's allowed-tools were not applied: ${command.path} belongs to a project folder that is not trusted.)`
    : "";
}

function needsRunner(name: string, what: string): ToolError {
  return new ToolError(
    "no_agent_loop",
    `The command /${name} ${what}, which needs Keel's agent to run it through the permission checks; it is not available here.`,
  );
}

async function runBash(command: CommandInfo, line: string, options: ExpandOptions): Promise<string> {
  if (!options.runTool) throw needsRunner(command.name, `runs \`${line}\``);
  const result = await options.runTool(
    {
      name: "Bash",
      input: { command: line, description: `/${command.name}: ${line.slice(0, 60)}` },
      allowRules: grantedRules(command, options.context),
    },
    options.context,
  );
  if (result.refused)
    throw new ToolError(
      "permission_denied",
      `The command /${command.name} runs \`${line}\`, which was not run: ${result.text}${heldBackNote(command, options.context)}`,
    );
  return result.text.replace(/\n+$/, "");
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (stats) => stats.isFile(),
    () => false,
  );
}

/** `@file` references that name existing files, read through the Read tool, as sections to append. */
async function includedFiles(command: CommandInfo, text: string, options: ExpandOptions): Promise<string[]> {
  const cwd = options.context.getAppState().cwd;
  const sections: string[] = [];
  const seen = new Set<string>();
  for (const reference of importReferences(text)) {
    const path = reference.startsWith("~/")
      ? join(options.home, reference.slice(2))
      : isAbsolute(reference)
        ? reference
        : resolve(cwd, reference);
    if (seen.has(path) || !(await isFile(path))) continue;
    seen.add(path);
    if (!options.runTool) throw needsRunner(command.name, `includes @${reference}`);
    const result = await options.runTool(
      { name: "Read", input: { file_path: path }, allowRules: grantedRules(command, options.context) },
      options.context,
    );
    if (result.refused)
      throw new ToolError(
        "permission_denied",
        `The command /${command.name} includes @${reference}, which could not be read: ${result.text}${heldBackNote(command, options.context)}`,
      );
    sections.push(`Contents of @${reference} (${path}):\n${result.text.replace(/\n+$/, "")}`);
  }
  return sections;
}

export async function expandCommand(
  command: CommandInfo,
  args: string,
  options: ExpandOptions,
): Promise<ExpandedCommand> {
  let content: string;
  try {
    content = await readFile(command.path, "utf8");
  } catch (error) {
    throw new ToolError(
      "not_found",
      `The command file ${command.path} cannot be read: ${(error as Error).message}`,
    );
  }
  const body = parseFrontmatter(content).body.trim();
  const positional = tokenizeSpecifier(args);
  const parts: string[] = [];
  // `@file` references are looked for in the command's text and arguments, never in command output.
  const written: string[] = [];
  for (const segment of segmentsOf(body)) {
    if (segment.kind === "text") {
      const text = substitute(segment.text, args, positional);
      parts.push(text);
      written.push(text);
    } else parts.push(await runBash(command, substitute(segment.command, args, positional), options));
  }
  let prompt = parts.join("");
  if (args !== "" && !usesArguments(body)) {
    prompt = `${prompt}\n\nARGUMENTS: ${args}`;
    written.push(args);
  }
  const files = await includedFiles(command, written.join("\n"), options);
  if (files.length > 0) prompt = `${prompt}\n\n${files.join("\n\n")}`;
  return {
    command,
    prompt,
    ...(command.model ? { model: command.model } : {}),
    allowRules: grantedRules(command, options.context),
  };
}
