// `keel hook install|uninstall|status`: where each agent keeps its hook settings, and changing them
// safely (the file read whole, checked, written atomically, the previous version kept as a backup).
import { copyFileSync, existsSync, lstatSync, readdirSync, readFileSync, rmdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { atomicWriteJson, atomicWriteText, readJsonObject } from "../settings/atomicJson.ts";
import { userHomeDir } from "../settings/locations.ts";
import { machineHookCommand, sharedHookCommand } from "./hookCommand.ts";
import {
  addKeelHooks,
  type Change,
  type FoundEntry,
  findKeelHooks,
  isKeelHookCommand,
  type KeelHookSpec,
  removeKeelHooks,
} from "./hookEntries.ts";
import { JUDGED_TOOLS } from "./keelTools.ts";
import type { AgentName } from "./types.ts";

export const SCOPES = ["user", "project", "local"] as const;
export type Scope = (typeof SCOPES)[number];

/** Claude Code's tools Keel judges; its matcher is a regular expression when not a plain name list. */
const CLAUDE_CODE_MATCHER = `^(${[...JUDGED_TOOLS, "mcp__.*"].join("|")})$`;

interface AgentPlace {
  /** Settings file per scope (relative to the home folder or the project; `env` for the agents' own homes). */
  files: Partial<Record<Scope, (home: string, project: string, env: NodeJS.ProcessEnv) => string>>;
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
      // Codex keeps its user files in CODEX_HOME when that is set.
      user: (home, _project, env) => join(env.CODEX_HOME || join(home, ".codex"), "hooks.json"),
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
    return file ? [{ agent, scope, path: file(home, resolve(project), env) }] : [];
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

/**
 * The command for a place: a project's settings are shared with a team, so they get the command that
 * finds `keel` on each machine's PATH; the user's and the local settings get this machine's paths.
 */
export function defaultHookCommand(place: Place, strict: boolean): string {
  return place.scope === "project"
    ? sharedHookCommand(place.agent, strict)
    : machineHookCommand(place.agent, strict);
}

export interface InstallResult {
  place: Place;
  changes: Change[];
  backup?: string;
  hint?: string;
}

/** Where the version of a settings file from before Keel's hook was added is kept. */
export function backupPath(place: Place): string {
  return `${place.path}.keel-backup`;
}

/**
 * Writes `settings` over `place`. A file without Keel's hook yet is copied to `<file>.keel-backup` first;
 * a file that has it already keeps the backup it has, which therefore never holds the hook.
 */
function writeSettings(
  place: Place,
  settings: Record<string, unknown>,
  hadHook: boolean,
): string | undefined {
  let backup: string | undefined;
  if (existsSync(place.path) && !(hadHook && existsSync(backupPath(place)))) {
    backup = backupPath(place);
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
  const hadHook = findKeelHooks(current, place.agent).length > 0;
  const backup = changes.length > 0 ? writeSettings(place, settings, hadHook) : undefined;
  const hint = PLACES[place.agent].hint;
  return { place, changes, ...(backup ? { backup } : {}), ...(hint && changes.length > 0 ? { hint } : {}) };
}

/** What uninstall did to the file besides taking Keel's entries out. */
export type Restored =
  /** The file is back to the bytes it had before install (from the backup), and the backup is gone. */
  | "backup"
  /** Keel had created the file and nothing else is in it: removed (with its folder, when left empty). */
  | "removed"
  /** Other settings changed since install: written without Keel's entries; the stale backup removed. */
  | "written";

export interface UninstallResult extends InstallResult {
  restored?: Restored;
}

/**
 * Takes out exactly Keel's entries and leaves the file as it was before install: the backup's bytes when
 * nothing else changed since, no file at all when Keel created it and nothing else is in it. A backup
 * that would still hold the hook, or no longer matches, is removed: it is Keel's, and done with.
 */
export function uninstallHook(place: Place): UninstallResult {
  if (!existsSync(place.path)) return { place, changes: [] };
  const { settings, changes } = removeKeelHooks(readJsonObject(place.path), place.agent);
  if (changes.length === 0) return { place, changes };
  const backup = backupPath(place);
  const before = existsSync(backup) ? readBackup(backup) : undefined;
  if (before && isDeepStrictEqual(before.settings, settings)) {
    atomicWriteText(place.path, before.text);
    rmSync(backup, { force: true });
    return { place, changes, restored: "backup" };
  }
  if (!existsSync(backup) && Object.keys(settings).length === 0 && lstatSync(place.path).isFile()) {
    rmSync(place.path);
    removeIfEmpty(dirname(place.path));
    return { place, changes, restored: "removed" };
  }
  atomicWriteJson(place.path, settings, 0o644);
  rmSync(backup, { force: true });
  return { place, changes, restored: "written" };
}

function readBackup(path: string): { text: string; settings: Record<string, unknown> } | undefined {
  try {
    return { text: readFileSync(path, "utf8"), settings: readJsonObject(path) };
  } catch {
    // A backup that does not parse cannot say what the file was: the remainder is written instead.
    return undefined;
  }
}

/** The agent's folder install created for the file, once nothing is left in it. */
function removeIfEmpty(dir: string): void {
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir);
  } catch {
    // Not empty after all, or gone: either way nothing of Keel's is left.
  }
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
