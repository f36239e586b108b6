// The shell variables one command sets: `X=1` alone, the declaration builtins (export, declare...),
// read/mapfile/printf -v/getopts/wait -p targets, unset, `{var}>` redirects, and builtins that may set
// any (eval, source, declare -n, coproc, let). Path checks read what the line changes of the variables
// they depend on (HOME for `~` and a bare cd, CDPATH for cd, PATH for which program a name runs);
// envSteering reads the names that steer programs.
import type { CommandView } from "./commandView.ts";
import { words } from "./options.ts";

export interface AssignedVariables {
  /** Names the command sets for the rest of the line (prefix assignments of a command only count for it). */
  names: string[];
  /** Why the command may set any variable at all (eval, source, a nameref...). */
  any?: string;
}

const DECLARATIONS = new Set(words("export declare typeset local readonly"));
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Options that take a value, per builtin that assigns its operands. */
const VALUED: Readonly<Record<string, string>> = {
  read: "adinNptu",
  mapfile: "dnOsuCc",
  readarray: "dnOsuCc",
};
/** Builtins that run code in this shell or bind names indirectly: any variable may change. */
const SETS_ANY: Readonly<Record<string, string>> = {
  eval: "eval runs code in this shell",
  source: "source runs a file in this shell",
  ".": ". runs a file in this shell",
  coproc: "coproc sets the variables it names",
  let: "let evaluates arithmetic that assigns variables",
  trap: "trap runs code in this shell",
};

/** Operands of a builtin after its options (a value-taking option takes the rest of its word or the next one). */
function operands(args: readonly string[], valued: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") return [...found, ...args.slice(i + 1)];
    if (!arg.startsWith("-") || arg === "-") {
      found.push(arg);
      continue;
    }
    for (let at = 1; at < arg.length; at++)
      if (valued.includes(arg[at] as string)) {
        if (at === arg.length - 1) i++;
        break;
      }
  }
  return found;
}

/** The variables one command sets, as far as its words tell. */
export function assignedVariables(view: CommandView): AssignedVariables {
  const [name, ...args] = view.argv;
  // Prefix assignments stay only when there is no command (`X=1;`), and `{var}>file` sets var.
  const names = name === undefined ? view.assignments.map((assignment) => assignment.name) : [];
  for (const word of view.argv) {
    const braced = word.match(/^\{([A-Za-z_][A-Za-z0-9_]*)\}$/);
    if (braced) names.push(braced[1] as string);
  }
  if (name === undefined) return { names };
  const any = SETS_ANY[name];
  if (any) return { names, any };
  if (DECLARATIONS.has(name)) {
    if (args.some((arg) => /^-[a-zA-Z]*n/.test(arg)))
      return { names, any: `${name} -n makes a name refer to another variable` };
    names.push(...args.filter((arg) => !/^[-+]/.test(arg)).map((arg) => arg.split(/\+?=/)[0] as string));
  } else if (name === "read") names.push(...operands(args, VALUED.read as string));
  else if (name === "mapfile" || name === "readarray")
    names.push(operands(args, VALUED.mapfile as string).at(-1) ?? "MAPFILE");
  else if (name === "getopts") names.push(...args.slice(1, 2));
  else if (name === "unset") names.push(...args.filter((arg) => !arg.startsWith("-")));
  else if (name === "printf" || name === "wait") {
    const flag = name === "printf" ? "-v" : "-p";
    args.forEach((arg, i) => {
      if (arg === flag && args[i + 1]) names.push(args[i + 1] as string);
      else if (arg.startsWith(flag) && arg.length > 2 && name === "printf") names.push(arg.slice(2));
    });
  }
  // A name that is not plain (`"$x"`, `a[1]`) may be any variable.
  const odd = names.find((assigned) => !NAME.test(assigned));
  return odd === undefined ? { names } : { names, any: `${name} sets ${odd}, which may name any variable` };
}

/** Variables whose value the path checks depend on. */
export const PATH_STATE_VARIABLES = new Set(words("HOME CDPATH PATH OLDPWD PWD DIRSTACK"));
