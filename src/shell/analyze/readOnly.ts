// Classifies one effective command (wrappers already removed): read-only, a plain file-system write,
// or anything else; and which of its arguments are paths read or written, for path validation.
import {
  type Classification,
  indexOf,
  lenientWritePaths,
  optionPaths,
  other,
  type PathUse,
  positionalUses,
} from "./classification.ts";
import { COMMAND_SPECS, VERSION_COMMANDS, WRITE_COMMANDS } from "./commandSpecs.ts";
import { classifyGit } from "./gitSpec.ts";
import { hasOption, type OptionSpec, optionValues, parseOptions, words } from "./options.ts";
import {
  classifyAwk,
  classifyFind,
  classifyJq,
  classifyPatternTool,
  classifySed,
  FD_SPEC,
  RG_SPEC,
} from "./readOnlyPrograms.ts";

export type { Classification, PathUse } from "./classification.ts";

/** git's paths: -C folders are followed by path validation itself; the rest are relative to where git starts. */
function classifyGitCommand(argv: readonly string[]): Classification {
  const git = classifyGit(argv);
  const paths: PathUse[] = [];
  for (const global of git.globals.paths)
    if (global.option !== "-C")
      paths.push({ value: global.value, index: global.index, access: "read", fromGitStart: true });
  const start = git.globals.subcommandIndex;
  for (const value of git.reads) {
    const index = argv.indexOf(value, start + 1);
    paths.push({
      value,
      ...(index > 0 ? { index } : indexOf(argv, value)),
      access: "read",
      fromGitStart: true,
    });
  }
  for (const value of git.writes)
    paths.push({
      value,
      ...indexOf(argv, value),
      access: "write",
      fromGitStart: true,
      ...(git.outputs.includes(value) ? { output: true } : {}),
    });
  const readsRepository = git.readsContent ? { readsRepository: true } : {};
  if (!git.readOnly || git.writes.length > 0)
    return { ...other(git.reason || "git --output writes a file", paths), ...readsRepository };
  return { kind: "read-only", reason: "", paths, ...readsRepository };
}

/** test's unary file tests (-a and -o are also and/or, -t takes a descriptor: left out) and binary ones. */
const TEST_FILE_UNARY = new Set(words("-b -c -d -e -f -g -G -h -k -L -N -O -p -r -s -S -u -w -x"));
const TEST_FILE_BINARY = new Set(words("-nt -ot -ef"));

/** `[ -f x ]`, `test a -nt b`: the files a test looks at are paths it reads (their existence tells). */
function testFileOperands(argv: readonly string[]): PathUse[] {
  const uses: PathUse[] = [];
  const read = (index: number) => {
    const value = argv[index];
    if (index > 0 && value !== undefined && value !== "]") uses.push({ value, index, access: "read" });
  };
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (TEST_FILE_UNARY.has(arg)) read(++i);
    else if (TEST_FILE_BINARY.has(arg)) {
      read(i - 1);
      read(++i);
    }
  }
  return uses;
}

function readsWhole(parse: ReturnType<typeof parseOptions>, spec: (typeof COMMAND_SPECS)[string]): boolean {
  if (!parse.ok) return false;
  if (spec.recursiveOptions?.some((option) => hasOption(parse, option))) return true;
  return optionValues(parse, "-d", "--directories").includes("recurse");
}

function classifyBySpec(argv: readonly string[], name: string): Classification | undefined {
  const spec = COMMAND_SPECS[name];
  if (!spec) return undefined;
  if (spec.anyArgs) {
    if (name === "printf" && argv.slice(1).some((arg) => arg.startsWith("-v")))
      return other("printf -v assigns a variable");
    return {
      kind: "read-only",
      reason: "",
      paths: name === "test" || name === "[" ? testFileOperands(argv) : [],
    };
  }
  const parse = parseOptions(argv.slice(1), spec.options);
  if (!parse.ok) {
    const reason = `${name} ${parse.option}: ${parse.reason}`;
    return other(reason, WRITE_COMMANDS.has(name) ? lenientWritePaths(argv) : []);
  }
  const uses = optionPaths(argv, parse, spec.pathOptions ?? {});
  if (!spec.fileWrite) for (const use of uses) if (use.access === "write") use.output = true;
  const role = spec.positionals;
  if (spec.maxPositionals !== undefined && parse.positionals.length > spec.maxPositionals) {
    const extra = positionalUses(argv, parse.positionalIndexes, "write", spec.maxPositionals).map((use) => ({
      ...use,
      output: true,
    }));
    return other(`${name} with ${parse.positionals.length} operands writes its last operand`, [
      ...positionalUses(argv, parse.positionalIndexes.slice(0, spec.maxPositionals), "read"),
      ...extra,
      ...uses,
    ]);
  }
  if (name === "diff" && hasOption(parse, "-r", "--recursive") && !hasOption(parse, "--no-dereference"))
    return other("diff -r follows symbolic links inside the folders (add --no-dereference)");
  if (
    name === "cp" &&
    hasOption(parse, "-r", "-R", "-a", "--recursive", "--archive") &&
    hasOption(parse, "-L", "-H", "--dereference")
  )
    return other("cp -r with -L follows symbolic links out of the folders it copies");
  if (name === "ls" && hasOption(parse, "-R", "--recursive") && hasOption(parse, "-L", "--dereference"))
    return other("ls -R with -L follows symbolic links out of the folders it lists");
  if (/sum$/.test(name) && hasOption(parse, "-c", "--check"))
    return other(`${name} -c reads the files named inside its input, which are not checked`);
  if (name === "date" && parse.positionals.some((arg) => !arg.startsWith("+")))
    return other("date with an operand sets the clock");
  if (name === "cd")
    return { kind: "read-only", reason: "", paths: positionalUses(argv, parse.positionalIndexes, "cd") };
  if (name === "cp" || name === "mv") {
    const last = parse.positionalIndexes.length - (hasOption(parse, "-t", "--target-directory") ? 0 : 1);
    const sources = positionalUses(argv, parse.positionalIndexes.slice(0, last), "read");
    uses.push(...sources);
    // Moving a file carries its content elsewhere: each source is changed as well as read.
    if (name === "mv") uses.push(...sources.map((source) => ({ ...source, access: "write" as const })));
    uses.push(...positionalUses(argv, parse.positionalIndexes.slice(last), "write"));
    const into = {
      sources: sources.map(({ value, index }) => ({ value, ...(index === undefined ? {} : { index }) })),
      recursive: name === "cp" && readsWhole(parse, spec),
      noTargetDirectory: hasOption(parse, "-T", "--no-target-directory"),
      parents: hasOption(parse, "--parents"),
    };
    for (const use of uses)
      if (use.access === "write" && !sources.some((s) => s.index === use.index)) use.into = into;
  } else if (role === "read" || role === "write") {
    uses.push(...positionalUses(argv, parse.positionalIndexes, role));
  } else if (role === "pattern-then-read") {
    const explicit = hasOption(parse, "-e", "-f", "--regexp", "--file");
    uses.push(...positionalUses(argv, parse.positionalIndexes, "read", explicit ? 0 : 1));
  }
  if (readsWhole(parse, spec)) {
    for (const use of uses) if (use.access === "read") use.recursive = true;
    // grep -r without a file searches the current folder.
    if (role === "pattern-then-read" && !uses.some((use) => use.access === "read" && use.index !== undefined))
      uses.push({ value: ".", access: "read", recursive: true });
  }
  const written = uses.find((use) => use.access === "write");
  if (written && !spec.fileWrite) return other(`${name} writes ${written.value}`, uses);
  return { kind: spec.fileWrite ? "file-write" : "read-only", reason: "", paths: uses };
}

/** `node --version`, `node -v`, `python3 -V`, `go version`... */
export function isVersionQuery(name: string, arg: string): boolean {
  if (!VERSION_COMMANDS.has(name)) return false;
  if (arg === "--version") return true;
  if (arg === "-v") return ["node", "npm", "pnpm", "yarn", "bun", "deno", "perl", "php"].includes(name);
  if (arg === "-V")
    return ["python", "python3", "cargo", "rustc", "rustup", "pip", "pip3", "uv", "tsc"].includes(name);
  if (arg === "version") return ["go", "docker", "kubectl", "gh", "dotnet"].includes(name);
  return arg === "-version" && ["java", "javac"].includes(name);
}

/** ps lists processes; BSD `e` (and -E style flags) would add each process's environment. */
function classifyPs(argv: readonly string[]): Classification {
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (["-o", "-O", "-p", "-u", "-U", "-C", "-g", "-G", "-t", "--sort", "--pid", "--ppid"].includes(arg)) {
      i++;
      continue;
    }
    if (/^--(sort|format|pid|ppid|user|cols|columns|width)=/.test(arg) || arg === "--forest") continue;
    // In the dash form -e means every process; only BSD's bare `e` shows their environments.
    if (/^-[AadefFHjlLMTwxyZNu]+$/.test(arg) || /^[auxwfjlcmrHSTZ]+$/.test(arg)) continue;
    return other(`ps ${arg} is not known to be safe (e shows process environments)`);
  }
  return { kind: "read-only", reason: "", paths: [] };
}

const NPM_LS: OptionSpec = {
  flags: "aglp",
  valued: "w",
  numeric: false,
  long: words(
    "--depth[=] --all --json --long --parseable --prod --production --dev --omit= --include=",
    "--link --global --unicode --no-unicode --workspace= --workspaces --include-workspace-root",
    "--package-lock-only --no-color --color[=]",
  ),
};

/** `npm ls` / `npm list`: the installed packages, named by package (not path) arguments. */
function classifyNpm(argv: readonly string[]): Classification | undefined {
  if (!["ls", "list", "ll", "la"].includes(argv[1] ?? "")) return undefined;
  const parse = parseOptions(argv.slice(2), NPM_LS);
  if (!parse.ok) return other(`npm ${argv[1]} ${parse.option}: ${parse.reason}`);
  return { kind: "read-only", reason: "", paths: [] };
}

export const LN_SPEC: OptionSpec = {
  flags: "sfnrvbiLPT",
  valued: "tS",
  long: words(
    "--symbolic --force --no-dereference --relative --verbose --backup[=] --interactive --logical",
    "--physical --target-directory= --no-target-directory --suffix=",
  ),
};

/**
 * `ln -s TARGET NAME` writes NAME only: the target is text stored in the link (what is later reached
 * through the link is judged then). A hard link (no -s) gives the source a second name, so both are writes.
 */
function classifyLn(argv: readonly string[]): Classification {
  const parse = parseOptions(argv.slice(1), LN_SPEC);
  if (!parse.ok || !hasOption(parse, "-s", "--symbolic"))
    return other("ln changes files", lenientWritePaths(argv));
  const uses = optionPaths(argv, parse, { "-t": "write", "--target-directory": "write" });
  const targetDir = uses.length > 0;
  const names = targetDir ? [] : parse.positionalIndexes.slice(-1);
  uses.push(...positionalUses(argv, names, "write"));
  return { kind: "file-write", reason: "", paths: uses };
}

const ENV_PRINT: OptionSpec = {
  flags: "i0v",
  valued: "u",
  long: ["--ignore-environment", "--null", "--unset=", "--debug"],
};

/** `env` with no command prints the environment (with its NAME=value words and -u/-i applied). */
function classifyEnv(argv: readonly string[]): Classification {
  const parse = parseOptions(argv.slice(1), ENV_PRINT);
  if (!parse.ok) return other(`env ${parse.option}: ${parse.reason}`);
  if (parse.positionals.some((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)))
    return other("env runs a command");
  return { kind: "read-only", reason: "", paths: [] };
}

/** Classifies an effective command. argv[0] must be a bare command name to count as read-only. */
export function classifyCommand(argv: readonly string[]): Classification {
  const name = argv[0];
  if (name === undefined) return other("only variable assignments");
  if (name.includes("/")) {
    return other(
      `${name} is a program given by path`,
      WRITE_COMMANDS.has(name.slice(name.lastIndexOf("/") + 1)) ? lenientWritePaths(argv) : [],
    );
  }
  if (argv.length === 2 && isVersionQuery(name, argv[1] as string))
    return { kind: "read-only", reason: "", paths: [] };
  if (name === "command") {
    const lookup = argv.length >= 3 && (argv[1] === "-v" || argv[1] === "-V");
    return lookup ? { kind: "read-only", reason: "", paths: [] } : other("command runs another command");
  }
  switch (name) {
    case "git":
      return classifyGitCommand(argv);
    case "find":
      return classifyFind(argv, classifyCommand);
    case "fd":
    case "fdfind": {
      const parse = parseOptions(argv.slice(1), FD_SPEC);
      if (!parse.ok) return other(`fd ${parse.option}: ${parse.reason}`);
      return {
        kind: "read-only",
        reason: "",
        paths: positionalUses(argv, parse.positionalIndexes, "read", 1),
      };
    }
    case "rg":
      return classifyPatternTool(argv, RG_SPEC, true);
    case "sed":
      return classifySed(argv);
    case "awk":
    case "gawk":
    case "mawk":
    case "nawk":
      return classifyAwk(argv);
    case "jq":
      return classifyJq(argv);
  }
  if (name === "ps") return classifyPs(argv);
  if (name === "env") return classifyEnv(argv);
  if (name === "ln") return classifyLn(argv);
  if (name === "npm") {
    const npm = classifyNpm(argv);
    if (npm) return npm;
  }
  if (name === "man" && argv.slice(1).some((arg) => arg.includes("/")))
    return other("man with a path renders a file");
  const bySpec = classifyBySpec(argv, name);
  if (bySpec) return bySpec;
  if (WRITE_COMMANDS.has(name)) return other(`${name} changes files`, lenientWritePaths(argv));
  return other(`${name} is not a known read-only command`);
}
