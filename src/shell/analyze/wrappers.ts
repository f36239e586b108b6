// Commands that run another command (timeout, nice, env, xargs, sudo...): read strictly for analysis
// (unknown wrapper options fail closed) and narrowly for allow rules. denyForms.ts reads them leniently.

import { isHarmlessVariable } from "./envVars.ts";
import { type OptionSpec, parseOptions } from "./options.ts";
import { PRIVILEGE_COMMANDS } from "./programs.ts";

interface WrapperDef {
  spec: OptionSpec;
  /** Positional words before the wrapped command (timeout's DURATION). */
  leadingPositionals?: number;
}

const ANALYSIS_WRAPPERS: Record<string, WrapperDef> = {
  timeout: {
    spec: {
      flags: "v",
      valued: "sk",
      long: ["--preserve-status", "--foreground", "--verbose", "--signal=", "--kill-after="],
      stopAtPositional: true,
    },
    leadingPositionals: 1,
  },
  time: {
    spec: {
      flags: "pv",
      valued: "f",
      long: ["--format=", "--portability", "--verbose"],
      stopAtPositional: true,
    },
  },
  nice: { spec: { valued: "n", long: ["--adjustment="], numeric: true, stopAtPositional: true } },
  nohup: { spec: { stopAtPositional: true } },
  stdbuf: { spec: { valued: "ioe", long: ["--input=", "--output=", "--error="], stopAtPositional: true } },
  ionice: {
    spec: {
      flags: "t",
      valued: "cn",
      long: ["--class=", "--classdata=", "--ignore"],
      stopAtPositional: true,
    },
  },
  setsid: { spec: { flags: "cfw", long: ["--ctty", "--fork", "--wait"], stopAtPositional: true } },
  builtin: { spec: { stopAtPositional: true } },
  command: { spec: { flags: "p", stopAtPositional: true } },
  exec: { spec: { flags: "cl", valued: "a", stopAtPositional: true } },
  env: {
    spec: {
      flags: "i0v",
      valued: "u",
      long: ["--ignore-environment", "--null", "--unset=", "--debug"],
      stopAtPositional: true,
    },
  },
};

/** Programs that run the command given after their own options (timeout, env, nohup, xargs...). */
export function isCommandWrapper(name: string): boolean {
  return name in ANALYSIS_WRAPPERS || name === "xargs";
}

/** The wrappers the strict reading removes. */
export const ANALYSIS_WRAPPER_NAMES: ReadonlySet<string> = new Set(Object.keys(ANALYSIS_WRAPPERS));

/** Wrappers whose only effect is scheduling or timing: stripped for allow-rule matching. */
const ALLOW_WRAPPERS = new Set(["timeout", "time", "nice", "stdbuf", "nohup"]);

export interface Unwrapped {
  /** Index in argv where the effective command starts. */
  offset: number;
  wrappers: string[];
  /** NAME=value given to `env`. */
  assignments: Array<{ name: string; value: string }>;
  /** xargs appends words read from stdin to the effective command. */
  inputArgs: boolean;
  /** Options given to xargs, for its own checks. */
  xargsOptions?: string[];
  problem?: { check: string; reason: string };
}

/** GNU and BSD xargs: -I R / -i[R] put input words where R stands, -a FILE reads them from a file. */
const XARGS_SPEC: OptionSpec = {
  flags: "0rtxpo",
  valued: "dnLPsIEaJRS",
  attached: "iel",
  long: [
    "--null",
    "--no-run-if-empty",
    "--verbose",
    "--exit",
    "--interactive",
    "--open-tty",
    "--show-limits",
    "--max-args=",
    "--max-lines[=]",
    "--max-procs=",
    "--max-chars=",
    "--delimiter=",
    "--arg-file=",
    "--replace[=]",
    "--eof[=]",
    "--process-slot-var=",
  ],
  stopAtPositional: true,
};

/** Strips wrappers for analysis: the effective command, or a problem when a wrapper is not understood. */
export function unwrapForAnalysis(argv: readonly string[]): Unwrapped {
  const result: Unwrapped = { offset: 0, wrappers: [], assignments: [], inputArgs: false };
  for (let guard = 0; guard < 32 && result.offset < argv.length; guard++) {
    const name = argv[result.offset] as string;
    const rest = argv.slice(result.offset + 1);
    // sudo, watch and env -S are judged by their own checks, not seen through.
    if (PRIVILEGE_COMMANDS.has(name) || name === "watch") return result;
    if (name === "command" && (rest[0] === "-v" || rest[0] === "-V")) return result;
    if (name === "env" && rest.some((arg) => /^(-[a-zA-Z0-9]*S|--split-string)/.test(arg))) return result;
    if (name === "xargs") {
      const parsed = parseOptions(rest, XARGS_SPEC);
      if (!parsed.ok) {
        result.problem = { check: "xargs-target", reason: `xargs ${parsed.option}: ${parsed.reason}` };
        return result;
      }
      const consumed = parsed.positionalIndexes[0] ?? rest.length;
      result.wrappers.push("xargs");
      result.inputArgs = true;
      result.xargsOptions = rest.slice(0, consumed);
      result.offset += 1 + consumed;
      if (result.offset >= argv.length) {
        result.problem = { check: "xargs-target", reason: "xargs without a command runs echo on its input" };
      }
      return result;
    }
    const def = ANALYSIS_WRAPPERS[name];
    if (!def) return result;
    const parsed = parseOptions(rest, def.spec);
    if (!parsed.ok) {
      result.problem = { check: "wrapper-options", reason: `${name} ${parsed.option}: ${parsed.reason}` };
      return result;
    }
    let consumed = parsed.positionalIndexes[0] ?? rest.length;
    if (name === "env") {
      // env NAME=value ... command
      while (consumed < rest.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[consumed] as string)) {
        const word = rest[consumed] as string;
        const eq = word.indexOf("=");
        result.assignments.push({ name: word.slice(0, eq), value: word.slice(eq + 1) });
        consumed++;
      }
      if (consumed >= rest.length) return result;
    }
    consumed += def.leadingPositionals ?? 0;
    if (consumed >= rest.length) return result;
    result.wrappers.push(name);
    result.offset += 1 + consumed;
  }
  return result;
}

/**
 * The command an allow rule is matched against: harmless VAR= prefixes and the timing wrappers are
 * removed; any other VAR= prefix stays in front as a word, so only a rule that names it matches.
 */
export function commandForAllowRules(
  argv: readonly string[],
  assignments: ReadonlyArray<{ name: string; value: string }>,
): string[] {
  const kept = assignments.filter((assignment) => !isHarmlessVariable(assignment.name));
  let current = [...argv];
  for (let guard = 0; guard < 16; guard++) {
    const name = current[0];
    if (name === undefined || !ALLOW_WRAPPERS.has(name)) break;
    const def = ANALYSIS_WRAPPERS[name] as WrapperDef;
    const parsed = parseOptions(current.slice(1), def.spec);
    if (!parsed.ok) break;
    const start = (parsed.positionalIndexes[0] ?? current.length) + (def.leadingPositionals ?? 0);
    if (start + 1 >= current.length) break;
    current = current.slice(start + 1);
  }
  return [...kept.map((assignment) => `${assignment.name}=${assignment.value}`), ...current];
}
