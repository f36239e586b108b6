// Custom slash commands: Markdown files in the project's `.keel/commands` and `.claude/commands`, then
// the user's `~/.keel/commands` and `~/.claude/commands`. Sub-folders namespace them:
// `frontend/component.md` is `/frontend:component`. The first command of a name wins, in that order.
import { readdir } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { type ConfigFolder, configFolders } from "../../../settings/locations.ts";
import { type FrontmatterValue, readFrontmatterFile } from "../frontmatter.ts";

export type CommandRoot = ConfigFolder;

export interface CommandInfo {
  /** Without the slash: `review`, `frontend:component`. */
  name: string;
  description: string;
  source: "project" | "user";
  path: string;
  argumentHint?: string;
  /** `allowed-tools`: permission rules that hold while the command's own lines run. */
  allowedTools: string[];
  model?: string;
  /** `disable-model-invocation: true`: only a person may run it (not offered through Skill). */
  modelInvocable: boolean;
}

const MAX_DEPTH = 4;
const MAX_COMMANDS = 500;
const MAX_DESCRIPTION_CHARS = 300;

export function commandRoots(projectRoot: string, env: NodeJS.ProcessEnv = process.env): CommandRoot[] {
  return configFolders(projectRoot, "commands", env);
}

/** `Bash(git add:*), Read` or a YAML list: rules split on commas outside parentheses. */
export function parseAllowedTools(value: FrontmatterValue | undefined): string[] {
  const items = Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
  const rules: string[] = [];
  for (const item of items) {
    let depth = 0;
    let current = "";
    for (const char of item) {
      if (char === "(") depth++;
      if (char === ")") depth = Math.max(0, depth - 1);
      if (char === "," && depth === 0) {
        if (current.trim()) rules.push(current.trim());
        current = "";
      } else current += char;
    }
    if (current.trim()) rules.push(current.trim());
  }
  return rules;
}

function text(value: FrontmatterValue | undefined): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

function firstLine(body: string): string {
  const line = body.split("\n").find((candidate) => candidate.trim() !== "") ?? "";
  return line
    .replace(/^#+\s*/, "")
    .trim()
    .slice(0, MAX_DESCRIPTION_CHARS);
}

async function readCommand(root: CommandRoot, path: string): Promise<CommandInfo | undefined> {
  const document = await readFrontmatterFile(path);
  if (!document) return undefined;
  const { attributes, body } = document;
  const name = relative(root.dir, path).replace(/\.md$/, "").split(sep).join(":");
  const argumentHint = text(attributes["argument-hint"]);
  const model = text(attributes.model);
  return {
    name,
    description: (text(attributes.description) ?? firstLine(body)).slice(0, MAX_DESCRIPTION_CHARS),
    source: root.source,
    path,
    ...(argumentHint ? { argumentHint } : {}),
    allowedTools: parseAllowedTools(attributes["allowed-tools"]),
    ...(model && model !== "inherit" ? { model } : {}),
    modelInvocable: attributes["disable-model-invocation"] !== true,
  };
}

async function markdownFiles(dir: string, depth: number, found: string[]): Promise<void> {
  if (depth > MAX_DEPTH || found.length >= MAX_COMMANDS) return;
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await markdownFiles(path, depth + 1, found);
    else if ((entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith(".md")) found.push(path);
    if (found.length >= MAX_COMMANDS) return;
  }
}

export async function discoverCommands(roots: readonly CommandRoot[]): Promise<CommandInfo[]> {
  const commands: CommandInfo[] = [];
  const names = new Set<string>();
  for (const root of roots) {
    const files: string[] = [];
    await markdownFiles(root.dir, 0, files);
    for (const file of files) {
      const command = await readCommand(root, file);
      if (!command || names.has(command.name) || !/^[\w.-]+(:[\w.-]+)*$/.test(command.name)) continue;
      names.add(command.name);
      commands.push(command);
    }
  }
  return commands;
}

/** `/name args` (or `name args`): the command of that name and its arguments, or undefined. */
export function findCommand(
  commands: readonly CommandInfo[],
  line: string,
): { command: CommandInfo; args: string } | undefined {
  const match = /^\/?([\w.:-]+)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!match) return undefined;
  const command = commands.find((candidate) => candidate.name === match[1]);
  return command ? { command, args: (match[2] ?? "").trim() } : undefined;
}
