// `/memory`: the memory files of this session, numbered (the user's and the project's instruction
// files, and the notes of each agent type that keeps a memory), shown with `/memory show <n>`, edited
// in $VISUAL / $EDITOR with `/memory edit <n>`, or appended to with `/memory add <n> <note>`. The
// person edits them directly: no approval is involved.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { userHomeDir } from "../../settings/locations.ts";
import { agentMemoryDir } from "../../tools/agent/agentMemory.ts";
import { agentTypeRoots, loadAgentTypes } from "../../tools/agent/agentTypes.ts";
import { writeFileAtomic } from "../../tools/shared/atomicWrite.ts";
import { withFileLock } from "../../tools/shared/fileLock.ts";
import { loadMemoryFiles } from "../memory.ts";

export interface MemoryEntry {
  label: string;
  path: string;
  exists: boolean;
}

export interface MemoryHost {
  projectRoot: string;
  cwd: string;
  print(text: string): void;
  /** Opens a file in the person's editor; resolves with an error message, or undefined. */
  editFile?(path: string): Promise<string | undefined>;
  env?: NodeJS.ProcessEnv;
}

const MAX_SHOWN_CHARS = 6_000;

/** Every memory file of the session, existing or the place a new one would go. */
export async function memoryEntries(host: MemoryHost): Promise<MemoryEntry[]> {
  const env = host.env ?? process.env;
  const home = userHomeDir(env);
  const entries: MemoryEntry[] = loadMemoryFiles(host.cwd, home).map((file) => ({
    label: file.importedFrom
      ? `imported by ${file.importedFrom}`
      : `${file.scope === "user" ? "user" : "project"} instructions`,
    path: file.path,
    exists: true,
  }));
  const add = (label: string, path: string) => {
    if (!entries.some((entry) => entry.path === path))
      entries.push({ label, path, exists: existsSync(path) });
  };
  if (!entries.some((entry) => entry.label === "project instructions"))
    add("project instructions", join(host.projectRoot, "CLAUDE.md"));
  if (!entries.some((entry) => entry.label === "user instructions"))
    add("user instructions", join(home, ".claude", "CLAUDE.md"));
  const { types } = await loadAgentTypes(agentTypeRoots(host.projectRoot, env));
  for (const type of types) {
    if (!type.memory) continue;
    const dir = agentMemoryDir(type.name, type.memory, host.projectRoot, env);
    add(`${type.name} agent memory (${type.memory})`, join(dir, "MEMORY.md"));
    const topics = existsSync(dir)
      ? readdirSync(dir)
          .filter((file) => file.endsWith(".md"))
          .sort()
      : [];
    for (const file of topics) add(`${type.name} agent notes`, join(dir, file));
  }
  return entries;
}

/** The person's editor on a file: $VISUAL, $EDITOR, else vi; the terminal is theirs until it exits. */
export async function openInEditor(
  path: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string | undefined> {
  const editor = env.VISUAL || env.EDITOR || "vi";
  // The path is an argument of the shell, never part of the command text.
  const result = spawnSync("sh", ["-c", `${editor} "$1"`, "keel-editor", path], { stdio: "inherit", env });
  if (result.error) return `Could not start the editor (${editor}): ${result.error.message}`;
  return result.status === 0
    ? undefined
    : `The editor (${editor}) exited with ${result.status ?? result.signal}.`;
}

function listing(entries: readonly MemoryEntry[]): string {
  return [
    "Memory files (instructions are read when a conversation starts; agent notes when the agent starts):",
    ...entries.map(
      (entry, index) => `  ${index + 1}. ${entry.label}: ${entry.path}${entry.exists ? "" : " (new)"}`,
    ),
    "Show one with /memory show <n>, edit it with /memory edit <n>, or add a line with /memory add <n> <note>.",
  ].join("\n");
}

export async function memoryCommand(host: MemoryHost, args: string): Promise<void> {
  const entries = await memoryEntries(host);
  const [action, which, ...rest] = args.trim().split(/\s+/);
  if (!action) {
    host.print(listing(entries));
    return;
  }
  const entry = entries[Number(which) - 1];
  if (!["show", "edit", "add"].includes(action) || !entry) {
    host.print(`Usage: /memory [show|edit|add] <n> (1-${entries.length}; /memory lists them).`);
    return;
  }
  if (action === "show") {
    const content = await readFile(entry.path, "utf8").catch(() => undefined);
    if (content === undefined)
      host.print(`${entry.path} does not exist yet. /memory edit ${which} creates it.`);
    else
      host.print(
        `${entry.path}:\n${content.length > MAX_SHOWN_CHARS ? `${content.slice(0, MAX_SHOWN_CHARS)}\n[... cut; open it with /memory edit ${which}]` : content.trimEnd()}`,
      );
    return;
  }
  await mkdir(dirname(entry.path), { recursive: true });
  if (action === "add") {
    const note = rest.join(" ").trim();
    if (!note) {
      host.print(`Usage: /memory add ${which} <note>`);
      return;
    }
    // Read and write under the file's lock: an agent writing its notes at the same time is not overwritten.
    const problem = await withFileLock(entry.path, async ({ signal }) => {
      const before = await readFile(entry.path, "utf8").catch(() => "");
      const separator = before === "" || before.endsWith("\n") ? "" : "\n";
      await writeFileAtomic(entry.path, Buffer.from(`${before}${separator}- ${note}\n`), { signal });
    }).then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    host.print(problem ?? `Added to ${entry.path}: - ${note}`);
    return;
  }
  const problem = await (host.editFile ?? ((path: string) => openInEditor(path, host.env)))(entry.path);
  host.print(problem ?? `Edited ${entry.path}.`);
}
