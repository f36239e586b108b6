// `keel hook install|uninstall|status`, for a person: which file changed and how, where the previous
// version was kept, and where Keel's hook is installed now.
import {
  defaultHookCommand,
  hookStatus,
  type InstallResult,
  installHook,
  type Place,
  placeOf,
  placesOf,
  type Scope,
  uninstallHook,
} from "../../guard/install.ts";
import { AGENTS, type AgentName } from "../../guard/types.ts";
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

function describe(result: InstallResult, verb: string): string[] {
  const where = `${result.place.agent} (${result.place.scope}): ${result.place.path}`;
  if (result.changes.length === 0)
    return [`${where}: ${verb === "install" ? "already installed" : "not installed"}; nothing changed`];
  const sign = { added: "+", updated: "~", removed: "-" } as const;
  return [
    where,
    ...result.changes.map((change) => `  ${sign[change.kind]} ${change.event}: ${change.command}`),
    ...(result.backup ? [`  previous version kept in ${result.backup}`] : []),
    ...(result.hint ? [`  note: ${result.hint}`] : []),
  ];
}

export function install(agent: AgentName, flags: ScopeFlags): void {
  const scopes = chosenScopes(flags);
  if (scopes.length > 1) throw new CliError("choose one of --user, --project, --local");
  const project = projectDirFrom(flags, process.cwd());
  let lines: string[];
  try {
    const place = placeOf(agent, scopes[0] ?? "user", project);
    const command = flags.command ?? defaultHookCommand(agent, flags.strict === true);
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
  const report = AGENTS.flatMap((agent) => placesOf(agent, project).map((place) => hookStatus(place)));
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
      const strict = entry.entries.some((found) => /\s--strict(\s|$)/.test(found.command));
      lines.push(`${where}: installed for ${events}${strict ? " (strict)" : ""}`);
      for (const command of new Set(entry.entries.map((found) => found.command)))
        lines.push(`  runs: ${command}`);
    }
  }
  if (lines.length === 0)
    lines.push(`Keel's hook is not installed for any agent (checked the user settings and ${project}).`);
  process.stdout.write(`${lines.join("\n")}\n`);
}
