// `keel hook install|uninstall|status`: where each agent keeps its hook settings, and changing them
// safely (the file read whole, checked, written atomically, the previous version kept as a backup).
import { copyFileSync, existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { atomicWriteJson, readJsonObject } from "../settings/atomicJson.ts";
import { userHomeDir } from "../settings/locations.ts";
import {
  addKeelHooks,
  type Change,
  type FoundEntry,
  findKeelHooks,
  isKeelHookCommand,
  type KeelHookSpec,
  removeKeelHooks,
} from "./hookEntries.ts";
import type { AgentName } from "./types.ts";

export const SCOPES = ["user", "project", "local"] as const;
export type Scope = (typeof SCOPES)[number];

/** Claude Code's tools Keel judges; its matcher is a regular expression when not a plain name list. */
const CLAUDE_CODE_MATCHER =
  "^(Bash|Read|Write|Edit|MultiEdit|NotebookEdit|Glob|Grep|LS|WebFetch|WebSearch|mcp__.*)$";

interface AgentPlace {
  /** Settings file per scope (relative to the home folder or the project). */
  files: Partial<Record<Scope, (home: string, project: string) => string>>;
  spec: (command: string) => KeelHookSpec;
  /** Said after an install: what else the agent may need. */
  hint?: string;
}

const PLACES: Record<AgentName, AgentPlace> = {
  "claude-code": {
    files: {
      user: (home) => join(home, ".claude", "settings.json"),
      project: (_home, project) => join(project, ".claude", "settings.json"),
      local: (_home, project) => join(project, ".claude", "settings.local.json"),
    },
    spec: (command) => ({
      agent: "claude-code",
      events: ["PreToolUse", "PermissionRequest"],
      matcher: CLAUDE_CODE_MATCHER,
      hook: { type: "command", command, timeout: 30 },
    }),
  },
  "gemini-cli": {
    files: {
      user: (home) => join(home, ".gemini", "settings.json"),
      project: (_home, project) => join(project, ".gemini", "settings.json"),
    },
    spec: (command) => ({
      agent: "gemini-cli",
      events: ["BeforeTool"],
      matcher: "*",
      // Gemini CLI's timeout is in milliseconds.
      hook: {
        name: "keel",
        type: "command",
        command,
        timeout: 30_000,
        description: "Keel's permission decision",
      },
    }),
    hint: "Gemini CLI runs hooks unless `hooksConfig.enabled` is false in its settings (on by default since 0.27; earlier releases need it true), and reads a project's .gemini/settings.json only in folders it trusts.",
  },
  codex: {
    files: {
      user: (home) => join(home, ".codex", "hooks.json"),
      project: (_home, project) => join(project, ".codex", "hooks.json"),
    },
    spec: (command) => ({
      agent: "codex",
      events: ["PreToolUse", "PermissionRequest"],
      hook: { type: "command", command, timeout: 30 },
    }),
    hint: "Codex runs a new or changed command hook only once you review and trust it (/hooks in Codex), and a project's .codex/hooks.json only in trusted projects. Releases before 0.124 also need `[features] codex_hooks = true` in ~/.codex/config.toml.",
  },
};

export interface Place {
  agent: AgentName;
  scope: Scope;
  path: string;
}

export function placesOf(agent: AgentName, project: string, env: NodeJS.ProcessEnv = process.env): Place[] {
  const home = userHomeDir(env);
  return SCOPES.flatMap((scope) => {
    const file = PLACES[agent].files[scope];
    return file ? [{ agent, scope, path: file(home, resolve(project)) }] : [];
  });
}

export function placeOf(
  agent: AgentName,
  scope: Scope,
  project: string,
  env: NodeJS.ProcessEnv = process.env,
): Place {
  const place = placesOf(agent, project, env).find((candidate) => candidate.scope === scope);
  if (!place) {
    const scopes = placesOf(agent, project, env).map((candidate) => `--${candidate.scope}`);
    throw new Error(`${agent} has no ${scope} settings; use ${scopes.join(" or ")}`);
  }
  return place;
}

function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** keel's launcher (bin/keel.js) beside the package.json of the keel package this module belongs to. */
export function findKeelLauncher(from: string = import.meta.url): string | undefined {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; bin?: { keel?: string } };
        if (pkg.name === "keel" && pkg.bin?.keel) return realpathSync(join(dir, pkg.bin.keel));
      } catch {
        // Not ours or unreadable: keep looking further up.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The command an agent runs: this Node and this keel by absolute path, so PATH and Node version do not matter. */
export function defaultHookCommand(agent: AgentName, strict: boolean): string {
  const launcher = findKeelLauncher();
  if (!launcher) throw new Error("cannot find keel's launcher (bin/keel.js); pass --command");
  return [process.execPath, launcher].map(shellWord).join(" ") + ` hook ${agent}${strict ? " --strict" : ""}`;
}

export interface InstallResult {
  place: Place;
  changes: Change[];
  backup?: string;
  hint?: string;
}

/** Writes `settings` over `place` when it changed: the old file copied to `<file>.keel-backup` first. */
function writeSettings(place: Place, settings: Record<string, unknown>): string | undefined {
  let backup: string | undefined;
  if (existsSync(place.path)) {
    backup = `${place.path}.keel-backup`;
    copyFileSync(place.path, backup);
  }
  atomicWriteJson(place.path, settings, 0o644);
  return backup;
}

export function installHook(place: Place, command: string): InstallResult {
  if (!isKeelHookCommand(command, place.agent))
    throw new Error(
      `the hook command must run \`keel hook ${place.agent}\`, so uninstall can find it: ${command}`,
    );
  const current = readJsonObject(place.path);
  const { settings, changes } = addKeelHooks(current, PLACES[place.agent].spec(command));
  const backup = changes.length > 0 ? writeSettings(place, settings) : undefined;
  const hint = PLACES[place.agent].hint;
  return { place, changes, ...(backup ? { backup } : {}), ...(hint && changes.length > 0 ? { hint } : {}) };
}

export function uninstallHook(place: Place): InstallResult {
  if (!existsSync(place.path)) return { place, changes: [] };
  const { settings, changes } = removeKeelHooks(readJsonObject(place.path), place.agent);
  const backup = changes.length > 0 ? writeSettings(place, settings) : undefined;
  return { place, changes, ...(backup ? { backup } : {}) };
}

export interface PlaceStatus {
  place: Place;
  entries: FoundEntry[];
  /** The file exists but cannot be read as JSON. */
  problem?: string;
}

export function hookStatus(place: Place): PlaceStatus {
  if (!existsSync(place.path)) return { place, entries: [] };
  try {
    return { place, entries: findKeelHooks(readJsonObject(place.path), place.agent) };
  } catch (error) {
    return { place, entries: [], problem: (error as Error).message };
  }
}
