// Sub-agent types: the built-in general-purpose, Explore (read-only) and fork, then Markdown files with
// front matter (name, description, tools, disallowedTools, model, memory, maxTurns, permissionMode: plan) from the project's
// `.keel/agents` and `.claude/agents` and the user's `~/.keel/agents` and `~/.claude/agents`.
// The first type of a name wins, in that order, and a file may replace a built-in (except fork).
import { readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { type ConfigFolder, configFolders } from "../../settings/locations.ts";
import { type FrontmatterValue, parseFrontmatter } from "../skill/frontmatter.ts";

export type AgentMemoryScope = "user" | "project" | "local";
export const FORK_TYPE = "fork";
export const DEFAULT_AGENT_TYPE = "general-purpose";

export interface AgentType {
  name: string;
  description: string;
  /** Tool names the agent gets from its parent's pool; "*" = all of them. */
  tools: readonly string[] | "*";
  disallowedTools: readonly string[];
  /** A model name or alias; undefined or "inherit" = the parent's. */
  model?: string;
  /** Keeps notes across sessions in its own folder of this scope (agentMemory.ts). */
  memory?: AgentMemoryScope;
  /** Model requests the agent may make for one task. */
  maxTurns?: number;
  /** "plan": read-only, enforced by the permission engine for every call the agent makes. */
  permissionMode?: "plan";
  /** The agent's own system prompt. */
  prompt: string;
  source: "built-in" | "project" | "user";
  path?: string;
}

export type AgentTypeRoot = ConfigFolder;

const builtinPrompt = (file: string) =>
  readFileSync(new URL(`./builtin/${file}`, import.meta.url), "utf8").trim();

const EXPLORE_TOOLS = ["Read", "Glob", "Grep", "LS", "LSP", "Bash", "WebFetch", "WebSearch", "ToolSearch"];

let builtins: AgentType[] | undefined;

export function builtinAgentTypes(): AgentType[] {
  builtins ??= [
    {
      name: DEFAULT_AGENT_TYPE,
      description:
        "General-purpose agent for multi-step tasks: researching questions, searching code, making changes. Has all your tools.",
      tools: "*",
      disallowedTools: [],
      prompt: builtinPrompt("general-purpose.md"),
      source: "built-in",
    },
    {
      name: "Explore",
      description:
        "Fast read-only agent for finding things in the code: files by pattern, code by keyword, answers about how something works. Cannot change anything.",
      tools: EXPLORE_TOOLS,
      disallowedTools: [],
      permissionMode: "plan",
      prompt: builtinPrompt("explore.md"),
      source: "built-in",
    },
    {
      name: FORK_TYPE,
      description: builtinPrompt("fork.md"),
      tools: "*",
      disallowedTools: [],
      prompt: "",
      source: "built-in",
    },
  ];
  return builtins;
}

export function agentTypeRoots(projectRoot: string, env: NodeJS.ProcessEnv = process.env): AgentTypeRoot[] {
  return configFolders(projectRoot, "agents", env);
}

function text(value: FrontmatterValue | undefined): string | undefined {
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  return undefined;
}

/** `Read, Grep` or `[Read, Grep]` or a YAML list; `Bash(git:*)` counts as Bash. */
export function toolList(value: FrontmatterValue | undefined): string[] | undefined {
  if (value === undefined || typeof value === "boolean") return undefined;
  const items = Array.isArray(value) ? value : value.split(/[,\s]+(?![^(]*\))/);
  const names = items.map((item) => item.trim().replace(/\(.*\)$/, "")).filter((item) => item !== "");
  return names.length > 0 ? names : undefined;
}

const NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

export interface AgentTypeFileResult {
  type?: AgentType;
  warning?: string;
}

export function parseAgentTypeFile(
  path: string,
  content: string,
  source: AgentTypeRoot["source"],
): AgentTypeFileResult {
  const { attributes, body } = parseFrontmatter(content);
  const name = text(attributes.name) ?? basename(path, ".md");
  if (!NAME.test(name))
    return { warning: `${path}: agent name "${name}" must use letters, digits, _ . : - (ignored)` };
  const description = text(attributes.description);
  if (!description) return { warning: `${path}: no description in the front matter (ignored)` };
  const tools = toolList(attributes.tools);
  const memory = text(attributes.memory);
  const mode = text(attributes.permissionMode);
  const warnings: string[] = [];
  if (memory !== undefined && !["user", "project", "local"].includes(memory))
    warnings.push(`${path}: memory must be user, project or local (ignored)`);
  // A file may make its agent stricter (read-only), never more permissive than the session.
  if (mode !== undefined && mode !== "plan")
    warnings.push(`${path}: permissionMode "${mode}" ignored (only "plan" is honoured)`);
  const model = text(attributes.model);
  const turns = text(attributes.maxTurns);
  const maxTurns = turns && /^\d+$/.test(turns) && Number(turns) > 0 ? Number(turns) : undefined;
  if (turns !== undefined && maxTurns === undefined)
    warnings.push(`${path}: maxTurns must be a positive whole number (ignored)`);
  const type: AgentType = {
    name,
    description,
    tools: tools === undefined || tools.includes("*") ? "*" : tools,
    disallowedTools: toolList(attributes.disallowedTools) ?? [],
    ...(model ? { model } : {}),
    ...(memory === "user" || memory === "project" || memory === "local" ? { memory } : {}),
    ...(mode === "plan" ? { permissionMode: "plan" as const } : {}),
    ...(maxTurns ? { maxTurns } : {}),
    prompt: body.trim(),
    source,
    path,
  };
  return { type, ...(warnings.length > 0 ? { warning: warnings.join("; ") } : {}) };
}

export interface LoadedAgentTypes {
  types: AgentType[];
  warnings: string[];
}

/** Every type offered: files first by root order, then built-ins no file replaced. */
export async function loadAgentTypes(roots: readonly AgentTypeRoot[]): Promise<LoadedAgentTypes> {
  const types: AgentType[] = [];
  const warnings: string[] = [];
  const taken = new Set<string>([FORK_TYPE]);
  for (const root of roots) {
    let files: string[];
    try {
      files = (await readdir(root.dir)).filter((file) => file.endsWith(".md")).sort();
    } catch {
      continue;
    }
    for (const file of files) {
      const path = join(root.dir, file);
      let content: string;
      try {
        content = await readFile(path, "utf8");
      } catch {
        continue;
      }
      const parsed = parseAgentTypeFile(path, content, root.source);
      if (parsed.warning) warnings.push(parsed.warning);
      if (!parsed.type) continue;
      if (parsed.type.name === FORK_TYPE)
        warnings.push(`${path}: "fork" is built in and cannot be replaced (ignored)`);
      if (taken.has(parsed.type.name)) continue;
      taken.add(parsed.type.name);
      types.push(parsed.type);
    }
  }
  for (const builtin of builtinAgentTypes())
    if (builtin.name === FORK_TYPE || !taken.has(builtin.name)) types.push(builtin);
  return { types, warnings };
}

export function findAgentType(types: readonly AgentType[], name: string): AgentType | undefined {
  return (
    types.find((type) => type.name === name) ??
    types.find((type) => type.name.toLowerCase() === name.toLowerCase())
  );
}
