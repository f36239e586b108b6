// Where settings live, per source. Keel's own file comes first in each pair and wins on conflicts;
// the `.claude` twin is read so existing Claude Code configuration works unchanged.
import { readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { RuleSource } from "../permissions/types.ts";
import { type Env, homeOf } from "../tool/context.ts";

/** The user's home for Keel's purposes: `KEEL_HOME` (tests, sandboxes), else the caller's home. */
export function userHomeDir(env: Env): string {
  const override = env.KEEL_HOME;
  return override && override.trim() !== "" ? resolve(override) : homeOf(env);
}

/** `~/.keel`: user settings, trust store, audit log. */
export function keelUserDir(env: Env): string {
  return join(userHomeDir(env), ".keel");
}

/** One place a kind of configuration folder (skills, commands, agents) is read from. */
export interface ConfigFolder {
  dir: string;
  source: "project" | "user";
}

/**
 * The folders of one kind, first match wins: the project's `.keel/<kind>` and `.claude/<kind>`, then the
 * user's. Started in the home folder, the project's folders are the user's: they are listed once.
 */
export function configFolders(projectRoot: string, kind: string, env: Env): ConfigFolder[] {
  const root = resolve(projectRoot);
  const home = userHomeDir(env);
  const folders: ConfigFolder[] = [
    { dir: join(root, ".keel", kind), source: "project" },
    { dir: join(root, ".claude", kind), source: "project" },
    { dir: join(home, ".keel", kind), source: "user" },
    { dir: join(home, ".claude", kind), source: "user" },
  ];
  return folders.filter((entry, index) => folders.findIndex((other) => other.dir === entry.dir) === index);
}

/** Where Claude Code keeps file-based managed settings on each platform. */
export function claudeCodeManagedFile(platform: NodeJS.Platform = process.platform): string {
  if (platform === "darwin") return "/Library/Application Support/ClaudeCode/managed-settings.json";
  if (platform === "win32") return "C:\\Program Files\\ClaudeCode\\managed-settings.json";
  return "/etc/claude-code/managed-settings.json";
}

/**
 * A managed settings file and the drop-ins in `managed-settings.d/` beside it, highest precedence first:
 * the drop-ins (`*.json`, not hidden) merge over the file in name order, so the last name wins.
 */
export function managedFileWithDropIns(file: string): string[] {
  const folder = join(dirname(file), "managed-settings.d");
  let names: string[] = [];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith(".json") && !name.startsWith("."));
  } catch {
    // No drop-in folder.
  }
  return [
    ...names
      .sort()
      .reverse()
      .map((name) => join(folder, name)),
    file,
  ];
}

/**
 * Managed (policy) settings files, highest precedence first: Keel's, then Claude Code's with its
 * drop-ins. `KEEL_MANAGED_SETTINGS` names one managed settings file (with its drop-ins) instead.
 */
export function managedSettingsPaths(env: Env, platform: NodeJS.Platform = process.platform): string[] {
  const override = env.KEEL_MANAGED_SETTINGS;
  if (override && override.trim() !== "") return managedFileWithDropIns(resolve(override));
  return ["/etc/keel/managed-settings.json", ...managedFileWithDropIns(claudeCodeManagedFile(platform))];
}

export type FileSource = Exclude<RuleSource, "cliArg" | "session">;

export interface SettingsLocation {
  source: FileSource;
  path: string;
}

/** Every settings file, highest precedence first: policy, local, project, user. */
export function settingsLocations(projectRoot: string, env: Env): SettingsLocation[] {
  const home = userHomeDir(env);
  const root = resolve(projectRoot);
  const user = [join(home, ".keel", "settings.json"), join(home, ".claude", "settings.json")];
  const locations: SettingsLocation[] = [
    ...managedSettingsPaths(env).map((path) => ({ source: "policy" as const, path })),
    { source: "local", path: join(root, ".keel", "settings.local.json") },
    { source: "local", path: join(root, ".claude", "settings.local.json") },
    { source: "project", path: join(root, ".keel", "settings.json") },
    { source: "project", path: join(root, ".claude", "settings.json") },
    ...user.map((path) => ({ source: "user" as const, path })),
  ];
  // Started in the home folder, the project files are the user files: read them once, as user settings.
  return locations.filter((location) => location.source === "user" || !user.includes(location.path));
}

/** Where "always allow" answers are written. */
export function localSettingsPath(projectRoot: string): string {
  return join(resolve(projectRoot), ".keel", "settings.local.json");
}

export function projectMcpJsonPath(projectRoot: string): string {
  return join(resolve(projectRoot), ".mcp.json");
}

/** Where `/relative` path rules of each source are anchored. */
export function ruleRootFor(source: RuleSource, projectRoot: string, env: Env): string {
  if (source === "user") return userHomeDir(env);
  if (source === "policy") return "/";
  return resolve(projectRoot);
}
