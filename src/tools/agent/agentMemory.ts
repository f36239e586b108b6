// Agent memory: an agent type with `memory` set keeps notes across sessions in a folder of its own,
// in the user's scope (~/.keel/agent-memory/<name>), the project's (<project>/.keel/agent-memory/<name>,
// shared through version control) or the local one (<project>/.keel/agent-memory-local/<name>, not shared).
// Its MEMORY.md is loaded into the agent's prompt; the `.claude` twin folders are read when Keel's is absent.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { userHomeDir } from "../../settings/locations.ts";
import type { AgentMemoryScope, AgentType } from "./agentTypes.ts";

const MAX_MEMORY_LINES = 200;
const MAX_MEMORY_CHARS = 25_000;

function folderName(agentName: string): string {
  return agentName.replace(/[^A-Za-z0-9_.-]/g, "-");
}

function scopeFolders(scope: AgentMemoryScope, projectRoot: string, env: NodeJS.ProcessEnv): string[] {
  const base = scope === "user" ? userHomeDir(env) : resolve(projectRoot);
  const leaf = scope === "local" ? "agent-memory-local" : "agent-memory";
  return [join(base, ".keel", leaf), join(base, ".claude", leaf)];
}

/** The agent's memory folder: Keel's, unless only the `.claude` twin exists. */
export function agentMemoryDir(
  agentName: string,
  scope: AgentMemoryScope,
  projectRoot: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const [keel, claude] = scopeFolders(scope, projectRoot, env).map((dir) => join(dir, folderName(agentName)));
  return !existsSync(keel!) && existsSync(claude!) ? claude! : keel!;
}

function readMemoryIndex(dir: string): string | undefined {
  let content: string;
  try {
    content = readFileSync(join(dir, "MEMORY.md"), "utf8");
  } catch {
    return undefined;
  }
  const lines = content.split("\n");
  let kept = lines.slice(0, MAX_MEMORY_LINES).join("\n");
  if (kept.length > MAX_MEMORY_CHARS) kept = kept.slice(0, MAX_MEMORY_CHARS);
  const cut = kept.length < content.length;
  return cut ? `${kept}\n[MEMORY.md continues; read the rest with Read]` : kept;
}

const SCOPE_MEANING: Record<AgentMemoryScope, string> = {
  user: "your notes for every project of this user",
  project: "notes for this project, shared with its team through version control",
  local: "notes for this project on this machine only",
};

/** The prompt section for an agent type with memory, or undefined. */
export function agentMemorySection(
  type: AgentType,
  projectRoot: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (!type.memory) return undefined;
  const dir = agentMemoryDir(type.name, type.memory, projectRoot, env);
  const index = readMemoryIndex(dir);
  return [
    "# Your memory",
    `You keep a memory folder at ${dir} (${type.memory} scope: ${SCOPE_MEANING[type.memory]}). It lasts across sessions.`,
    "Before you start, use what it says. When you learn something worth keeping (where things are, what worked, the user's preferences), write it down with Write or Edit: short, dated notes in Markdown topic files there (name.md), each listed in MEMORY.md with one line. Update or remove notes that turn out wrong. Reading and writing .md files in this folder needs no approval; nothing else there does.",
    index === undefined
      ? "MEMORY.md does not exist yet: create it when you first have something to keep."
      : `Contents of ${join(dir, "MEMORY.md")}:\n\n${index.trim()}`,
  ].join("\n\n");
}
