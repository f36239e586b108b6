// Classifies one effective command (wrappers already removed): read-only, a plain file-system write,
// or anything else; and which of its arguments are paths read or written, for path validation.
import { isTrivialAwkProgram } from "./awkProgram.ts";
import { COMMAND_SPECS, VERSION_COMMANDS, WRITE_COMMANDS } from "./commandSpecs.ts";
import { classifyGit } from "./gitSpec.ts";
import { hasOption, type OptionSpec, optionValues, parseOptions, words } from "./options.ts";
import { judgeSedScript } from "./sedScript.ts";

export interface PathUse {
  value: string;
  /** Index of the argv word that carries it (its quoting, globs and tilde), when known. */
  index?: number;
  access: "read" | "write" | "cd";
  /** Relative to the folder git starts in (after its -C options), not the shell's. */
  fromGitStart?: boolean;
  /** A folder read whole, with everything below it (grep -r, rg, cp -r). */
  recursive?: boolean;
  /** A file written through an option or a script (sort -o, git --output, sed w): never covered by an allow rule. */
  output?: boolean;
  /**
   * A destination that, when it is a folder, receives each of these sources under its own name (cp, mv):
   * what is written is the folder's entry of that name, and for a recursive copy everything below it.
   */
  into?: {
    sources: Array<{ value: string; index?: number }>;
    recursive: boolean;
    noTargetDirectory: boolean;
    /** cp --parents: a source lands under its whole relative path, not its name. */
    parents: boolean;
  };
}

export interface Classification {
  kind: "read-only" | "file-write" | "other";
  /** Why it is not read-only. */
  reason: string;
  paths: PathUse[];
  /** git may print any file of the repository it uses (show, diff, grep, log -p...). */
  readsRepository?: boolean;
}

const other = (reason: string, paths: PathUse[] = []): Classification => ({ kind: "other", reason, paths });

/** Index of the n-th positional in argv (argv[0] is the command). */
function positionalUses(
  argv: readonly string[],
  indexes: readonly number[],
  access: PathUse["access"],
  from = 0,
): PathUse[] {
  return indexes.slice(from).map((index) => ({ value: argv[index + 1] as string, index: index + 1, access }));
}

/** The word carrying a value: the word itself, or an option word ending in `=value`. */
function valueIndex(argv: readonly string[], value: string): number | undefined {
  const index = argv.lastIndexOf(value);
  if (index > 0) return index;
  for (let i = argv.length - 1; i > 0; i--) if ((argv[i] as string).endsWith(`=${value}`)) return i;
  return undefined;
}

function indexOf(argv: readonly string[], value: string): { index?: number } {
  const index = valueIndex(argv, value);
  return index === undefined ? {} : { index };
}

function optionPaths(
  argv: readonly string[],
  parse: { options: Array<{ name: string; value?: string }> },
  table: Readonly<Record<string, "read" | "write">>,
): PathUse[] {
  const uses: PathUse[] = [];
  for (const option of parse.options) {
    const access = table[option.name];
    if (access && option.value !== undefined) {
      const index = valueIndex(argv, option.value);
      uses.push({ value: option.value, ...(index === undefined ? {} : { index }), access });
    }
  }
  return uses;
}

/** Every non-option word, as written paths: used when a write command's options are not understood. */
function lenientWritePaths(argv: readonly string[]): PathUse[] {
  const uses: PathUse[] = [];
  let options = true;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (options && arg === "--") {
      options = false;
      continue;
    }
    if (options && arg.startsWith("-") && arg !== "-") {
      const eq = arg.indexOf("=");
      if (eq !== -1) uses.push({ value: arg.slice(eq + 1), index: i, access: "write" });
      continue;
    }
    const eq = arg.indexOf("=");
    if (/^(of|if)=/.test(arg)) uses.push({ value: arg.slice(eq + 1), index: i, access: "write" });
    else uses.push({ value: arg, index: i, access: "write" });
  }
  return uses;
}

const FIND_TESTS_WITH_VALUE = new Set(
  words(
    "-name -iname -path -ipath -wholename -iwholename -regex -iregex -regextype -type -xtype",
    "-size -newer -anewer -cnewer -mtime -mmin -atime -amin -ctime -cmin -maxdepth -mindepth",
    "-perm -user -group -uid -gid -links -inum -samefile -printf -lname -ilname -used -fstype",
    "-newermt -newerct -newerat -context",
  ),
);
const FIND_FILE_TESTS = new Set(words("-newer -anewer -cnewer -samefile"));
const FIND_TESTS = new Set(
  words(
    "-print -print0 -ls -prune -empty -depth -not ! -a -and -o -or ( ) , -nouser -nogroup",
    "-readable -writable -executable -true -false -quit -xdev -mount -noleaf -daystart",
    "-ignore_readdir_race -noignore_readdir_race",
  ),
);

function classifyFind(argv: readonly string[]): Classification {
  const paths: PathUse[] = [];
  let i = 1;
  while (i < argv.length && ["-H", "-P", "-O0", "-O1", "-O2", "-O3", "-D"].includes(argv[i] as string)) i++;
  if (argv.slice(1, i).includes("-D")) return other("find -D is not known to be safe");
  for (; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg.startsWith("-") || arg === "!" || arg === "(") break;
    paths.push({ value: arg, index: i, access: "read" });
  }
  if (paths.length === 0) paths.push({ value: ".", access: "read" });
  for (; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (FIND_TESTS.has(arg)) continue;
    if (FIND_TESTS_WITH_VALUE.has(arg)) {
      // These compare against another file, which find stats: a path read like the start points.
      if (FIND_FILE_TESTS.has(arg) && i + 1 < argv.length)
        paths.push({ value: argv[i + 1] as string, index: i + 1, access: "read" });
      i++;
      continue;
    }
    return other(`find ${arg} is not a read-only find expression`, paths);
  }
  return { kind: "read-only", reason: "", paths };
}

const FD_SPEC: OptionSpec = {
  flags: "HIusiFapgl0q1",
  valued: "dtecEjSo",
  long: words(
    "--hidden --no-ignore --no-ignore-vcs --unrestricted --case-sensitive --ignore-case",
    "--glob --regex --fixed-strings --absolute-path --list-details --full-path --print0",
    "--quiet --max-depth= --min-depth= --exact-depth= --type= --extension= --exclude=",
    "--color= --threads= --size= --changed-within= --changed-before= --owner= --max-results=",
    "--prune --strip-cwd-prefix[=] --show-errors --one-file-system --no-require-git --format=",
  ),
};

const RG_SPEC: OptionSpec = {
  flags: "iSsnNlcvwxoFuUPabHIqp0.hV",
  valued: "efgtTABCmMdjEr",
  numeric: false,
  long: words(
    "--regexp= --file= --glob= --iglob= --type= --type-not= --type-add= --type-clear=",
    "--after-context= --before-context= --context= --max-count= --max-columns= --max-depth=",
    "--threads= --encoding= --replace= --ignore-case --smart-case --case-sensitive",
    "--line-number --no-line-number --files-with-matches --files-without-match --count",
    "--count-matches --invert-match --word-regexp --line-regexp --only-matching",
    "--fixed-strings --unrestricted --multiline --multiline-dotall --pcre2 --text",
    "--byte-offset --with-filename --no-filename --quiet --pretty --null --null-data --hidden",
    "--no-hidden --no-ignore --no-ignore-vcs --no-ignore-parent --no-ignore-dot",
    "--no-ignore-global --no-ignore-exclude --no-ignore-files --files --type-list --json",
    "--vimgrep --heading --no-heading --color= --colors= --column --no-column --sort=",
    "--sortr= --trim --stats --no-messages --passthru --binary --no-binary --max-filesize=",
    "--one-file-system --engine= --no-config --glob-case-insensitive --max-columns-preview",
    "--path-separator= --field-match-separator= --field-context-separator= --no-require-git",
    "--context-separator= --no-context-separator --crlf --no-unicode --block-buffered",
    "--line-buffered --include-zero --no-pcre2-unicode",
  ),
};

function classifyPatternTool(argv: readonly string[], spec: OptionSpec, listsFiles: boolean): Classification {
  const parse = parseOptions(argv.slice(1), spec);
  if (!parse.ok) return other(`${argv[0]} ${parse.option}: ${parse.reason}`);
  const explicitPattern = hasOption(parse, "-e", "-f", "--regexp", "--file");
  const noPattern = listsFiles && hasOption(parse, "--files", "--type-list");
  const skip = explicitPattern || noPattern ? 0 : 1;
  // rg reads every folder it is given whole, and the current folder when given none.
  const paths: PathUse[] = positionalUses(argv, parse.positionalIndexes, "read", skip).map((use) => ({
    ...use,
    recursive: true,
  }));
  if (paths.length === 0) paths.push({ value: ".", access: "read", recursive: true });
  for (const file of optionValues(parse, "-f", "--file"))
    paths.push({ value: file, ...indexOf(argv, file), access: "read" });
  return { kind: "read-only", reason: "", paths };
}

const SED_SPEC: OptionSpec = {
  flags: "nrEsuz",
  valued: "el",
  long: words(
    "--quiet --silent --regexp-extended --separate --unbuffered --null-data --posix",
    "--expression= --line-length= --debug --sandbox",
  ),
};

/** Takes `-i[SUFFIX]` out of sed's short-option bundles (`-ni`, `-i.bak`; in `-ie` the e is a suffix). */
function withoutInPlace(args: readonly string[]): { args: string[]; inPlace: boolean } {
  let inPlace = false;
  const out: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const arg = args[k] as string;
    if (arg === "--") {
      out.push(...args.slice(k));
      break;
    }
    if (arg === "--in-place" || arg.startsWith("--in-place=")) {
      inPlace = true;
      continue;
    }
    if (!arg.startsWith("-") || arg.startsWith("--") || arg === "-") {
      out.push(arg);
      continue;
    }
    let kept = "-";
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j] as string;
      if (letter === "i") {
        inPlace = true;
        break;
      }
      kept += letter;
      if (letter === "e" || letter === "l") {
        kept += arg.slice(j + 1);
        break;
      }
    }
    if (kept !== "-") out.push(kept);
    if (kept === "-e" || kept === "-l") out.push(args[++k] ?? "");
  }
  return { args: out, inPlace };
}

function classifySed(argv: readonly string[]): Classification {
  const { args, inPlace } = withoutInPlace(argv.slice(1));
  const parsed = parseOptions(args, SED_SPEC);
  if (!parsed.ok) return other(`sed ${parsed.option}: ${parsed.reason}`);
  const scripts = optionValues(parsed, "-e", "--expression");
  const fromOption = scripts.length > 0;
  const script = fromOption ? scripts.join("\n") : (parsed.positionals[0] ?? "");
  const verdict = judgeSedScript(script);
  const files = parsed.positionals.slice(fromOption ? 0 : 1);
  const paths: PathUse[] = files.map((value) => {
    const index = valueIndex(argv, value);
    return { value, ...(index === undefined ? {} : { index }), access: inPlace ? "write" : "read" };
  });
  // Files the script itself reads or writes (r, w, s///w) are judged like the command's own.
  if (verdict.kind === "dangerous")
    return other(verdict.reason, [
      ...paths,
      ...verdict.files.map(({ path, access }) => ({ value: path, access, output: access === "write" })),
    ]);
  if (verdict.kind !== "safe") return other(verdict.reason, paths);
  if (inPlace && paths.length === 0) return other("sed -i without a file");
  return { kind: inPlace ? "file-write" : "read-only", reason: "", paths };
}

function classifyAwk(argv: readonly string[]): Classification {
  const parse = parseOptions(argv.slice(1), { valued: "F", long: ["--field-separator="] });
  if (!parse.ok) return other(`awk ${parse.option}: ${parse.reason}`);
  const program = parse.positionals[0];
  if (program === undefined) return other("awk without a program");
  if (!isTrivialAwkProgram(program)) {
    // Every string in a program that redirects output may be the file it writes (print > ".git/config").
    const literals = /[>|]/.test(program)
      ? [...program.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => match[1] as string)
      : [];
    const written: PathUse[] = literals
      .filter((text) => text !== "")
      .map((value) => ({ value, access: "write", output: true }));
    return other("awk programs can run commands and write files", [
      ...written,
      ...positionalUses(argv, parse.positionalIndexes, "read", 1),
    ]);
  }
  if (parse.positionals.slice(1).some((arg) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(arg)))
    return other("awk variable assignments among the files");
  return { kind: "read-only", reason: "", paths: positionalUses(argv, parse.positionalIndexes, "read", 1) };
}

/**
 * What makes a jq filter more than a transformation of its input: modules (import/include, which read
 * files from search paths the filter names), the environment ($ENV, env, also written `$ ENV`), jq's
 * own variables ($__loc__, $__prog_args...) and the functions that look at the module system.
 */
const JQ_REACHES_OUT =
  /\$\s*(?:ENV\b|__)|(?<![.\w$])(?:env|import|include|modulemeta|get_search_list|get_prog_origin|get_jq_origin|input_filename|\$__prog_args)(?![\w])/;

function classifyJq(argv: readonly string[]): Classification {
  const rest: string[] = [];
  const indexes: number[] = [];
  const paths: PathUse[] = [];
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--arg" || arg === "--argjson") {
      i += 2;
      continue;
    }
    if (arg === "--slurpfile" || arg === "--rawfile") {
      paths.push({ value: argv[i + 2] ?? "", index: i + 2, access: "read" });
      i += 2;
      continue;
    }
    // A filter read from a file (-f /dev/stdin too) or modules from a library path are not inspected.
    if (arg === "-f" || arg === "--from-file" || (/^-[a-zA-Z]*f/.test(arg) && !arg.startsWith("--")))
      return other("jq reads its filter from a file, which is not inspected");
    if (arg === "-L" || arg.startsWith("-L") || arg.startsWith("--library-path"))
      return other("jq -L loads modules from a folder");
    if (arg === "--indent") {
      i++;
      continue;
    }
    rest.push(arg);
    indexes.push(i);
  }
  const parse = parseOptions(rest, {
    flags: "rjacCMSensRh",
    long: words(
      "--raw-output --raw-output0 --join-output --ascii-output --compact-output --color-output",
      "--monochrome-output --sort-keys --exit-status --null-input --slurp --raw-input --tab",
      "--seq --stream --stream-errors --args --jsonargs",
    ),
  });
  if (!parse.ok) return other(`jq ${parse.option}: ${parse.reason}`);
  if (hasOption(parse, "--args", "--jsonargs")) return other("jq --args takes positional values");
  const filter = parse.positionals[0] ?? "";
  // jq reads `# ...` to the end of the line as a comment: `$ # x\nENV` is $ENV.
  if (JQ_REACHES_OUT.test(filter) || JQ_REACHES_OUT.test(filter.replace(/#[^\n]*/g, " ")))
    return other("this jq filter reads the environment or files beyond its input");
  const files = parse.positionalIndexes.slice(1).map((at) => indexes[at] as number);
  for (const index of files) paths.push({ value: argv[index] as string, index, access: "read" });
  return { kind: "read-only", reason: "", paths };
}

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

const LN_SPEC: OptionSpec = {
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
      return classifyFind(argv);
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
