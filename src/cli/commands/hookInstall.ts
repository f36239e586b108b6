// `keel hook install|uninstall|status`, for a person: which file changed and how, where the previous
// version was kept, and where Keel's hook is installed now.

import { existsSync } from "node:fs";
import { codexTrust, describeCodexTrust, projectOfCodexHooks } from "../../guard/codexTrust.ts";
import {
  absolutePathsIn,
  isSharedHookCommand,
  KEEL_MISSING_EXIT,
  keelOnPath,
} from "../../guard/hookCommand.ts";
import {
  defaultHookCommand,
  hookStatus,
  installHook,
  type Place,
  type PlaceStatus,
  placeOf,
  placesOf,
  type Scope,
  type UninstallResult,
  uninstallHook,
} from "../../guard/install.ts";
import { AGENTS, type AgentName } from "../../guard/types.ts";
import { readJsonObject } from "../../settings/atomicJson.ts";
import { CliError } from "../exitCodes.ts";
import { projectDirFrom } from "../projectDir.ts";

export interface ScopeFlags {
  user?: boolean;
  project?: boolean;
  local?: boolean;
  cwd?: string;
  strict?: boolean;
  command?: string;
}

function chosenScopes(flags: ScopeFlags): Scope[] {
  return (["user", "project", "local"] as const).filter((scope) => flags[scope] === true);
}

function failure(error: unknown): CliError {
  return new CliError(error instanceof Error ? error.message : String(error));
}

const RESTORED: Record<NonNullable<UninstallResult["restored"]>, (result: UninstallResult) => string> = {
  backup: () => "  restored as it was before install (from the backup, now removed)",
  removed: (result) => `  removed ${result.place.path}: Keel had created it and nothing else was in it`,
  written: () =>
    "  other settings changed since install, so they are kept; the backup from install was removed",
};

function describe(result: UninstallResult, verb: string): string[] {
  const where = `${result.place.agent} (${result.place.scope}): ${result.place.path}`;
  if (result.changes.length === 0)
    return [`${where}: ${verb === "install" ? "already installed" : "not installed"}; nothing changed`];
  const sign = { added: "+", updated: "~", removed: "-" } as const;
  return [
    where,
    ...result.changes.map((change) => `  ${sign[change.kind]} ${change.event}: ${change.command}`),
    ...(result.backup ? [`  previous version kept in ${result.backup}`] : []),
    ...(result.restored ? [RESTORED[result.restored](result)] : []),
    ...(verb === "install" && result.place.scope === "project" ? sharedNote(result.place) : []),
    ...(result.hint ? [`  note: ${result.hint}`] : []),
  ];
}

/** A project's settings go to every checkout: what the command does there, with Keel and without. */
function sharedNote(place: Place): string[] {
  return [
    "  this file is shared: the command runs the keel on each machine's PATH (no paths of this machine);",
    `  where there is none it says so and exits ${KEEL_MISSING_EXIT}, which ${place.agent} reads as "block this call": every call is refused until Keel is installed there.`,
  ];
}

export function install(agent: AgentName, flags: ScopeFlags): void {
  const scopes = chosenScopes(flags);
  if (scopes.length > 1) throw new CliError("choose one of --user, --project, --local");
  const project = projectDirFrom(flags, process.cwd());
  let lines: string[];
  try {
    const place = placeOf(agent, scopes[0] ?? "user", project);
    const command = flags.command ?? defaultHookCommand(place, flags.strict === true);
    lines = describe(installHook(place, command), "install");
  } catch (error) {
    throw failure(error);
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}

export function uninstall(agent: AgentName, flags: ScopeFlags): void {
  const project = projectDirFrom(flags, process.cwd());
  const scopes = chosenScopes(flags);
  let places: Place[];
  let lines: string[];
  try {
    // Without a scope, every place it could be: "remove it" should not leave a copy behind.
    places =
      scopes.length > 0 ? scopes.map((scope) => placeOf(agent, scope, project)) : placesOf(agent, project);
    const results = places.map((place) => uninstallHook(place));
    const changed = results.filter((result) => result.changes.length > 0);
    lines =
      changed.length > 0
        ? changed.flatMap((result) => describe(result, "uninstall"))
        : [
            `Keel's ${agent} hook is not installed in ${places.map((place) => place.path).join(", ")}; nothing changed`,
          ];
  } catch (error) {
    throw failure(error);
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}

export function status(flags: { cwd?: string; json?: boolean }): void {
  const project = projectDirFrom(flags, process.cwd());
  const env = process.env;
  const report = AGENTS.flatMap((agent) =>
    placesOf(agent, project).map((place) => {
      const found = hookStatus(place);
      return { ...found, ...(found.entries.length > 0 ? { runs: runsHere(found, env) } : {}) };
    }),
  );
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const lines: string[] = [];
  for (const entry of report) {
    const where = `${entry.place.agent} (${entry.place.scope}) ${entry.place.path}`;
    if (entry.problem) lines.push(`${where}: cannot read: ${entry.problem}`);
    else if (entry.entries.length === 0) continue;
    else {
      const events = [...new Set(entry.entries.map((found) => found.event))].join(", ");
      const strict = entry.entries.some((found) => /\s--strict(\s|;|$)/.test(found.command));
      lines.push(`${where}: installed for ${events}${strict ? " (strict)" : ""}`);
      for (const command of new Set(entry.entries.map((found) => found.command)))
        lines.push(`  runs: ${command}`);
      lines.push(...(entry.runs ?? []));
    }
  }
  if (lines.length === 0)
    lines.push(`Keel's hook is not installed for any agent (checked the user settings and ${project}).`);
  process.stdout.write(`${lines.join("\n")}\n`);
}

/** Whether the installed command can start on this machine, what happens where Keel is missing, and (Codex) whether Codex will run it. */
function runsHere(status: PlaceStatus, env: NodeJS.ProcessEnv): string[] {
  const { place } = status;
  const lines: string[] = [];
  const commands = [...new Set(status.entries.map((found) => found.command))];
  for (const command of commands) {
    if (isSharedHookCommand(command)) {
      const keel = keelOnPath(env);
      lines.push(
        keel
          ? `  starts here: keel on PATH is ${keel}.`
          : "  cannot start here: no keel on this PATH (install Keel, or put its bin/keel.js on PATH as keel).",
        `  where keel is not on PATH it prints that and exits ${KEEL_MISSING_EXIT}: ${place.agent} refuses each call with that reason until Keel is installed.`,
      );
      continue;
    }
    const missing = absolutePathsIn(command).filter((path) => !existsSync(path));
    lines.push(
      missing.length > 0
        ? `  cannot start here: ${missing.join(", ")} missing; ${place.agent} shows a hook error and decides alone. Reinstall: keel hook install ${place.agent} --${place.scope}`
        : "  starts here (this machine's Node and keel, by absolute path).",
    );
    if (place.scope === "project")
      lines.push(
        `  this shared file names this machine's paths, so teammates' checkouts cannot start it: reinstall with keel hook install ${place.agent} --project (a command that finds keel on PATH).`,
      );
  }
  if (place.agent === "codex") {
    const report = codexTrust(place.path, readJsonObject(place.path), {
      env,
      ...(place.scope === "project" ? { project: projectOfCodexHooks(place.path) } : {}),
    });
    lines.push(...describeCodexTrust(report));
  }
  return lines;
}
