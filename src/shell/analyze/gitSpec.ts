// git: which subcommands only read, with which options; and the options that make git run a program.
import { GIT_READ_ONLY } from "./gitReadOnly.ts";
import { parseOptions, words } from "./options.ts";

/** Global options before the subcommand that take no value. */
const GLOBAL_FLAGS = new Set(
  words(
    "--no-pager -P --no-optional-locks --literal-pathspecs --glob-pathspecs",
    "--noglob-pathspecs --icase-pathspecs --no-replace-objects --bare --no-lazy-fetch",
    "--no-advice",
  ),
);
const GLOBAL_PATH_OPTIONS = new Set(["-C", "--git-dir", "--work-tree"]);

export interface GitGlobals {
  /** Index of the subcommand in argv, or -1. */
  subcommandIndex: number;
  /** Paths from -C / --git-dir / --work-tree, in order, with the index of the word holding each. */
  paths: Array<{ option: string; value: string; index: number }>;
  /** `--bare`: git takes the folder it starts in as the repository. */
  bare: boolean;
  /** `-c name=value` settings, in order. */
  configs: string[];
  /** An option that is neither a known flag nor a path option. */
  unknown?: string;
}

/** Reads git's options before the subcommand (argv[0] is git). */
export function readGitGlobals(argv: readonly string[]): GitGlobals {
  const result: GitGlobals = { subcommandIndex: -1, paths: [], bare: false, configs: [] };
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith("-")) {
      result.subcommandIndex = i;
      return result;
    }
    if (arg === "--bare") result.bare = true;
    if (GLOBAL_FLAGS.has(arg)) continue;
    const eq = arg.indexOf("=");
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (GLOBAL_PATH_OPTIONS.has(name)) {
      const index = eq === -1 ? i + 1 : i;
      const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
      if (value === undefined) {
        result.unknown = name;
        return result;
      }
      result.paths.push({ option: name, value, index });
      continue;
    }
    if (arg.startsWith("-C") && arg.length > 2) {
      result.paths.push({ option: "-C", value: arg.slice(2), index: i });
      continue;
    }
    result.unknown ??= arg;
    if (arg === "-c") {
      const setting = argv[i + 1];
      if (setting !== undefined) result.configs.push(setting);
    } else if (arg.startsWith("-c") && arg.length > 2) result.configs.push(arg.slice(2));
    if (arg === "-c" || arg === "--config-env" || arg === "--namespace") i++;
  }
  return result;
}

/** Subcommands that print what files hold (in the work tree or in history). */
const CONTENT_SUBCOMMANDS = new Set(words("show diff diff-tree diff-index diff-files grep blame cat-file"));
/** Subcommands that print file contents only with a patch option. */
const PATCH_SUBCOMMANDS = new Set(words("log whatchanged reflog stash shortlog"));
const PATCH_OPTIONS = new Set(
  words(
    "-p -u --patch -U --unified --patch-with-raw --patch-with-stat --word-diff --color-words -L",
    "--cc -c --full-diff --remerge-diff --binary",
  ),
);

export interface GitClassification {
  readOnly: boolean;
  /** It may print the contents of any file of the repository (a read of the whole work tree and history). */
  readsContent: boolean;
  reason: string;
  /** Positionals that may be paths, and option values that are files read. */
  reads: string[];
  /** Files the call writes (--output, the config file of git config). */
  writes: string[];
  /** The ones of them named by --output. */
  outputs: string[];
  globals: GitGlobals;
  subcommand?: string;
}

/** Whether `git ...` only reads, by subcommand and option allowlists. */
export function classifyGit(argv: readonly string[]): GitClassification {
  const globals = readGitGlobals(argv);
  const base: GitClassification = {
    readOnly: false,
    readsContent: false,
    reason: "",
    reads: [],
    writes: [],
    outputs: [],
    globals,
  };
  if (argv.length === 2 && (argv[1] === "--version" || argv[1] === "version"))
    return { ...base, readOnly: true };
  if (globals.unknown) return { ...base, reason: `git option ${globals.unknown} is not known to be safe` };
  if (globals.subcommandIndex === -1) return { ...base, reason: "git without a subcommand" };
  const subcommand = argv[globals.subcommandIndex] as string;
  const rest = argv.slice(globals.subcommandIndex + 1);
  const outputs = outputOptions(rest);
  const writes = [...outputs];
  base.outputs = outputs;
  writes.push(...protectedFilesWritten(subcommand, rest));
  // What it prints is judged before its options are: an option the tables do not know must not hide it.
  base.readsContent = printsContent(subcommand, rest);
  base.reads = base.readsContent ? storedPaths(rest.filter((arg) => !arg.startsWith("-"))) : [];
  const spec = GIT_READ_ONLY[subcommand];
  if (!spec)
    return { ...base, subcommand, writes, reason: `git ${subcommand} is not a read-only git command` };
  const parsed = parseOptions(rest, spec.options);
  if (!parsed.ok) {
    // A config call whose options are not all known may write: the file it would change is judged.
    if (subcommand === "config" && !readsConfigOnly(rest))
      writes.push(configFileWritten(lenientOptions(rest)));
    return { ...base, subcommand, writes, reason: `git ${subcommand} ${parsed.option}: ${parsed.reason}` };
  }
  const optionNames = parsed.options.map((option) => option.name);
  const problem = spec.positionals?.(parsed.positionals, optionNames);
  if (problem && subcommand === "config") writes.push(configFileWritten(parsed.options));
  if (problem) return { ...base, subcommand, writes, reason: problem };
  const hasPattern = !optionNames.some((name) => name === "-e" || name === "-f");
  const reads = spec.patternFirst && hasPattern ? parsed.positionals.slice(1) : [...parsed.positionals];
  if (CONTENT_SUBCOMMANDS.has(subcommand)) reads.push(...storedPaths(reads));
  for (const option of parsed.options) {
    if (spec.readOptions?.includes(option.name) && option.value !== undefined) reads.push(option.value);
  }
  // git config --global / --system read the user's and the machine's config files.
  if (subcommand === "config" && optionNames.includes("--global")) reads.push("~/.gitconfig");
  if (subcommand === "config" && optionNames.includes("--system")) reads.push("/etc/gitconfig");
  const readsContent =
    CONTENT_SUBCOMMANDS.has(subcommand) ||
    // git config --blob prints a file as stored in history.
    (subcommand === "config" && optionNames.includes("--blob")) ||
    (PATCH_SUBCOMMANDS.has(subcommand) && optionNames.some((name) => PATCH_OPTIONS.has(name)));
  return { ...base, readOnly: true, readsContent, subcommand, reads: [...new Set(reads)], writes };
}

/** The file `git config NAME VALUE` changes: --global, --system, -f FILE, --worktree, else the repository's own. */
function configFileWritten(options: ReadonlyArray<{ name: string; value?: string }>): string {
  const names = options.map((option) => option.name);
  const file = options.find((option) => option.name === "-f" || option.name === "--file")?.value;
  if (file !== undefined) return file;
  if (names.includes("--global")) return "~/.gitconfig";
  if (names.includes("--system")) return "/etc/gitconfig";
  return names.includes("--worktree") ? ".git/config.worktree" : ".git/config";
}

const CONFIG_READS = words(
  "--get --get-all --get-regexp --get-urlmatch --get-color --get-colorbool --list -l",
);

/** `git config --get x`, `git config list`: reading calls, whatever other options they carry. */
function readsConfigOnly(args: readonly string[]): boolean {
  const first = args.find((arg) => !arg.startsWith("-"));
  return (
    args.some((arg) => CONFIG_READS.includes(arg.split("=")[0] as string)) ||
    first === "get" ||
    first === "list"
  );
}

/** git's options as named for configFileWritten, read leniently (abbreviations of --global, --system, --file). */
function lenientOptions(args: readonly string[]): Array<{ name: string; value?: string }> {
  const options: Array<{ name: string; value?: string }> = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") break;
    const name = arg.split("=")[0] as string;
    const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : undefined;
    if (arg === "-f" || (name.length >= 4 && "--file".startsWith(name)))
      options.push({ name: "--file", value: value ?? args[++i] ?? "" });
    else if (/^-f./.test(arg)) options.push({ name: "--file", value: arg.slice(2) });
    else
      for (const known of ["--global", "--system", "--worktree"])
        if (name.length >= 4 && known.startsWith(name)) options.push({ name: known });
  }
  return options;
}

/** Protected files some subcommands change: .gitmodules (submodule add), the hooks a template installs (init). */
function protectedFilesWritten(subcommand: string, args: readonly string[]): string[] {
  const operands = args.filter((arg) => !arg.startsWith("-"));
  if (subcommand === "submodule" && ["add", "set-url", "set-branch"].includes(operands[0] ?? ""))
    return [".gitmodules"];
  const names = args.map((arg) => arg.split("=")[0] as string);
  const installs = names.some(
    (name) =>
      name.length >= 5 && ["--template", "--separate-git-dir"].some((known) => known.startsWith(name)),
  );
  if (subcommand === "init" && installs) return [`${operands[0] ?? "."}/.git/hooks`];
  return [];
}

/** Subcommands that are not read-only but print (or pack up) what files hold. */
const EXPORTERS = new Set(words("format-patch fast-export archive bundle range-diff request-pull"));

/** Whether a git call may print the contents of files of its repository, options read leniently. */
function printsContent(subcommand: string, args: readonly string[]): boolean {
  if (CONTENT_SUBCOMMANDS.has(subcommand) || EXPORTERS.has(subcommand)) return true;
  if (subcommand === "config") return args.some((arg) => arg.startsWith("--blob"));
  if (PATCH_SUBCOMMANDS.has(subcommand))
    return args.some(
      (arg) =>
        PATCH_OPTIONS.has(arg.split("=")[0] as string) ||
        /^-U\d+$|^--(patch|unified|word-diff|color-words|ext-diff|textconv)/.test(arg),
    );
  // `git add -p`, `git checkout --patch`: hunks of the files are shown to choose from.
  return HUNK_CHOOSERS.has(subcommand) && args.some((arg) => /^-[a-zA-Z]*p[a-zA-Z]*$|^--patch/.test(arg));
}

const HUNK_CHOOSERS = new Set(words("add checkout restore reset stash commit"));

/** `HEAD:.env`, `:0:.env`, `main~2:src/x`: a file as stored, read by its path. */
function storedPaths(words: readonly string[]): string[] {
  return words.flatMap((word) => {
    const stored = word.match(/^[^:]*:(?:[0-3]:)?(.+)$/)?.[1];
    return stored !== undefined && !stored.startsWith("/") ? [stored] : [];
  });
}

/** `--output=<file>` (and its abbreviations) on any subcommand: a file written. */
function outputOptions(args: readonly string[]): string[] {
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") break;
    const name = arg.split("=")[0] as string;
    if (name.length >= 5 && "--output".startsWith(name)) {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[i + 1];
      if (value !== undefined) files.push(value);
    }
  }
  return files;
}
