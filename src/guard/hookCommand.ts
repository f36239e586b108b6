// The command an agent's settings run for Keel's hook. In a file only this machine reads (user, local)
// it is this Node and this keel by absolute path, so PATH and the Node version do not matter. In a file a
// team shares (a project's), absolute paths would name this machine's folders: the command runs the
// `keel` on each machine's PATH instead, and where there is none it says so and exits 2, which every
// agent reads as "block this call": a guard that cannot start refuses, it never lets calls through unseen.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AgentName } from "./types.ts";

const AGENT_TITLES: Record<AgentName, string> = {
  "claude-code": "Claude Code",
  "gemini-cli": "Gemini CLI",
  codex: "Codex",
};

/** Exit code of the shared command where Keel is missing: every agent's "block this call", with the reason. */
export const KEEL_MISSING_EXIT = 2;

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

function hookArgs(agent: AgentName, strict: boolean): string {
  return `hook ${agent}${strict ? " --strict" : ""}`;
}

/** This Node and this keel by absolute path: for settings only this machine reads. */
export function machineHookCommand(agent: AgentName, strict: boolean): string {
  const launcher = findKeelLauncher();
  if (!launcher) throw new Error("cannot find keel's launcher (bin/keel.js); pass --command");
  return `${[process.execPath, launcher].map(shellWord).join(" ")} ${hookArgs(agent, strict)}`;
}

/**
 * The `keel` on PATH, wherever the settings are read; without one, a line that says what is missing and
 * what to do, and exit 2: the agent refuses the call with that line as the reason.
 */
export function sharedHookCommand(agent: AgentName, strict: boolean): string {
  const missing = `Keel's hook in this project's settings cannot run: no keel on PATH, so ${AGENT_TITLES[agent]} refuses this call. Install Keel (see its README), or remove Keel's hook from the project's settings.`;
  return `if command -v keel >/dev/null 2>&1; then exec keel ${hookArgs(agent, strict)}; else echo ${shellWord(missing)} >&2; exit ${KEEL_MISSING_EXIT}; fi`;
}

/** Whether a hook command is the shared kind (keel found on PATH) rather than one machine's paths. */
export function isSharedHookCommand(command: string): boolean {
  return /\bcommand -v keel\b/.test(command);
}

/** The absolute paths a machine-bound command names (its Node and launcher), to check they exist here. */
export function absolutePathsIn(command: string): string[] {
  const words = command.match(/'(?:[^']|'\\'')*'|\S+/g) ?? [];
  return words
    .map((word) => (word.startsWith("'") ? word.slice(1, -1).replace(/'\\''/g, "'") : word))
    .filter((word) => isAbsolute(word));
}

/** The `keel` a shell would find on this PATH, if any. */
export function keelOnPath(env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, "keel");
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}
