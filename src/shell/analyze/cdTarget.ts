// Where cd, pushd and popd take the shell: `cd -L` (the default) applies `..` to the path as written,
// `cd -P` to the folders the links lead to, as bash does. A folder that depends on run time is unknown.
import { resolve } from "node:path";
import { resolveSymlinks } from "../../permissions/paths.ts";
import type { Env } from "../../tool/context.ts";
import type { CommandView } from "./commandView.ts";
import { type ExpandOptions, expandWord } from "./expand.ts";

export type CdTarget =
  | { kind: "stay" }
  | { kind: "go"; folders: string[] }
  | { kind: "unknown"; reason: string };

const CD_OPTIONS = /^-[LPe@]+$/;

/** Commands that run code in this shell, which may change its folder: source, `.`, eval. */
const RUNS_HERE = new Set(["source", ".", "eval"]);

/** A command changing how cd works (shopt -s cdable_vars, set -P, set -o physical): which one, or undefined. */
export function cdRulesChange(view: CommandView): string | undefined {
  const [name, ...args] = view.argv;
  if (name === "shopt" && args.includes("cdable_vars")) return "shopt -s cdable_vars";
  if (name === "set" && args.some((arg) => /^[-+][a-zA-Z]*P/.test(arg) || arg === "physical"))
    return "set -P";
  return undefined;
}

export interface CdContext extends Omit<ExpandOptions, "cwd"> {
  /** An earlier command that changed how cd works (shopt -s cdable_vars, set -P). */
  cdRulesChanged?: string;
  /** What may have set a variable cd reads (HOME, CDPATH), on the line or in front of the cd itself. */
  variable?: (name: string) => string | undefined;
  /** The caller's environment: the HOME a bare cd goes to, the CDPATH cd searches. */
  env: Env;
}

/** Where a cd-like command goes from `cwd`, given what earlier commands of the line changed. */
export function cdTarget(view: CommandView, cwd: string, globs: CdContext): CdTarget {
  const name = view.argv[0];
  if (name !== undefined && RUNS_HERE.has(name))
    return { kind: "unknown", reason: `${name} runs code in this shell, which may change its folder` };
  if (name !== "cd" && name !== "pushd" && name !== "popd") return { kind: "stay" };
  const describe = view.argv.join(" ").slice(0, 40);
  if (globs.cdRulesChanged)
    return { kind: "unknown", reason: `${describe}: after ${globs.cdRulesChanged}, cd follows other rules` };
  if (name === "popd")
    return { kind: "unknown", reason: `${describe} returns to a folder the analyzer cannot know` };
  let physical = false;
  let at = 1;
  for (; at < view.argv.length; at++) {
    const arg = view.argv[at] as string;
    if (arg === "--") {
      at++;
      break;
    }
    if (name === "pushd" && arg === "-n") return { kind: "stay" };
    if (!arg.startsWith("-") || arg === "-") break;
    if (name === "pushd" || !CD_OPTIONS.test(arg))
      return { kind: "unknown", reason: `${describe}: the option ${arg} is not understood` };
    const letters = arg.slice(1);
    if (letters.includes("P") || letters.includes("L"))
      physical = letters.lastIndexOf("P") > letters.lastIndexOf("L");
  }
  const target = view.argv[at];
  if (target === undefined) {
    if (name === "pushd") return { kind: "unknown", reason: "pushd without a folder swaps the folder stack" };
    // A bare cd goes to $HOME: after HOME= (on the line or in front of cd) that is not the home folder.
    const home = globs.variable?.("HOME");
    if (home) return { kind: "unknown", reason: `${describe} goes to $HOME, which ${home} may have set` };
    const callerHome = globs.env.HOME;
    if (!callerHome) return { kind: "unknown", reason: `${describe} goes to $HOME, which is not set` };
    return { kind: "go", folders: [callerHome] };
  }
  if (target === "-" || /^[+-]\d+$/.test(target))
    return { kind: "unknown", reason: `${describe} goes to a folder the analyzer cannot know` };
  // With CDPATH set (inherited, on the line or in front of cd), `cd name` may go to a folder of CDPATH instead.
  const cdpath = globs.variable?.("CDPATH") ?? (globs.env.CDPATH ? "the environment" : undefined);
  if (cdpath && !/^(\/|\.\.?(\/|$))/.test(target))
    return {
      kind: "unknown",
      reason: `${describe}: CDPATH, which ${cdpath} may have set, may lead elsewhere`,
    };
  const expansion = expandWord(view.words[at], target, { cwd, ...globs });
  if (expansion.kind === "unknown") return { kind: "unknown", reason: expansion.reason };
  const candidates = expansion.globMatches.length > 0 ? expansion.globMatches : expansion.paths;
  const folders = candidates.map((candidate) =>
    physical
      ? resolveSymlinks(candidate.startsWith("/") ? candidate : `${cwd}/${candidate}`)
      : resolve(cwd, candidate),
  );
  return { kind: "go", folders };
}
