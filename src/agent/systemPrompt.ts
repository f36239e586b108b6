// The system prompt: Keel's base prompt, the deferred tools by name, the environment facts and the
// memory files. Each offered tool's prompt() travels as its definition's description in the request's
// `tools`, which precede the system text in the cached prefix; it is not repeated here.
import { readFileSync } from "node:fs";
import { environmentFacts, formatEnvironment } from "./environment.ts";
import { formatMemory, loadMemoryFiles } from "./memory.ts";
import type { SystemPart } from "./provider.ts";
import type { ToolPool } from "./toolPool.ts";

let basePrompt: string | undefined;

export function keelBasePrompt(): string {
  basePrompt ??= readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();
  return basePrompt;
}

export interface SystemPromptOptions {
  cwd: string;
  home: string;
  additionalDirectories?: readonly string[];
  /** `--append-system-prompt`: extra text after everything else. */
  append?: string;
  /**
   * `--system-prompt`: stands in for Keel's instructions and the environment section. The deferred
   * tools list (needed to load them) and the memory files (CLAUDE.md, as Claude Code keeps them) stay.
   */
  replace?: string;
  now?: Date;
}

export function deferredToolsSection(pool: ToolPool): string | undefined {
  const deferred = pool.deferred();
  if (deferred.length === 0) return undefined;
  const lines = deferred.map((tool) => `- ${tool.name}${tool.searchHint ? `: ${tool.searchHint}` : ""}`);
  return `# Deferred tools\nThese tools exist but are not loaded. Load one with ToolSearch before calling it:\n${lines.join("\n")}`;
}

/** Built once per conversation; the whole result is stable, so it ends with one cache breakpoint. */
export async function buildSystemPrompt(pool: ToolPool, options: SystemPromptOptions): Promise<SystemPart[]> {
  const environment =
    options.replace === undefined
      ? formatEnvironment(await environmentFacts(options.cwd, options.additionalDirectories, options.now))
      : undefined;
  const sections = [
    options.replace ?? keelBasePrompt(),
    deferredToolsSection(pool),
    environment,
    formatMemory(loadMemoryFiles(options.cwd, options.home)),
    options.append,
  ].filter((section): section is string => typeof section === "string" && section.trim() !== "");
  return sections.map((text, index) => (index === sections.length - 1 ? { text, cache: true } : { text }));
}
