// git: which subcommands only read, with which options; and the options that make git run a program.
import { type OptionSpec, parseOptions, words } from "./options.ts";

const DIFF_FLAGS = "pusRazwbWMCBDN0123456789%";
const DIFF_VALUED = "USGl";
const DIFF_LONG = words(
  "--patch --no-patch --unified= --raw --patch-with-raw --minimal --patience --histogram",
  "--anchored= --diff-algorithm= --stat[=] --compact-summary --numstat --shortstat",
  "--dirstat[=] --cumulative --summary --patch-with-stat --name-only --name-status",
  "--submodule[=] --color[=] --no-color --color-moved[=] --no-color-moved --color-moved-ws=",
  "--word-diff[=] --word-diff-regex= --color-words[=] --no-renames --rename-empty",
  "--no-rename-empty --check --ws-error-highlight= --full-index --binary --abbrev[=]",
  "--no-abbrev --break-rewrites[=] --find-renames[=] --find-copies[=] --find-copies-harder",
  "--irreversible-delete --diff-filter= --pickaxe-all --pickaxe-regex --find-object=",
  "--skip-to= --rotate-to= --relative[=] --no-relative --text --ignore-cr-at-eol",
  "--ignore-space-at-eol --ignore-space-change --ignore-all-space --ignore-blank-lines",
  "--ignore-matching-lines= --inter-hunk-context= --function-context --exit-code --quiet",
  "--no-ext-diff --no-textconv --ignore-submodules[=] --src-prefix= --dst-prefix=",
  "--no-prefix --default-prefix --line-prefix= --indent-heuristic --no-indent-heuristic",
  "--stat-width= --stat-name-width= --stat-count= --stat-graph-width=",
);
const LOG_LONG = [
  ...DIFF_LONG,
  ...words(
    "--oneline --max-count= --skip= --since= --after= --until= --before= --since-as-filter=",
    "--author= --committer= --grep= --grep-reflog= --all-match --invert-grep",
    "--regexp-ignore-case --basic-regexp --extended-regexp --fixed-strings --perl-regexp",
    "--remove-empty --merges --no-merges --min-parents= --max-parents= --no-min-parents",
    "--no-max-parents --first-parent --exclude-first-parent-only --not --all --branches[=]",
    "--tags[=] --remotes[=] --glob= --exclude= --reflog --single-worktree --ignore-missing",
    "--cherry-mark --cherry-pick --left-only --right-only --cherry --walk-reflogs --merge",
    "--boundary --simplify-by-decoration --show-pulls --full-history --dense --sparse",
    "--simplify-merges --ancestry-path[=] --date-order --author-date-order --topo-order",
    "--reverse --no-walk[=] --do-walk --pretty[=] --format= --abbrev-commit",
    "--no-abbrev-commit --encoding= --expand-tabs[=] --no-expand-tabs --notes[=] --no-notes",
    "--relative-date --date= --parents --children --left-right --graph --decorate[=]",
    "--decorate-refs= --decorate-refs-exclude= --no-decorate --source --mailmap --no-mailmap",
    "--use-mailmap --no-use-mailmap --full-diff --log-size --follow --no-follow",
    "--diff-merges= --no-diff-merges --combined-all-paths --remerge-diff --cc --count",
    "--objects",
  ),
];
const LOG: OptionSpec = {
  flags: `${DIFF_FLAGS}iEFgcmtP`,
  valued: `${DIFF_VALUED}nL`,
  long: LOG_LONG,
  numeric: true,
};
const DIFF: OptionSpec = {
  flags: DIFF_FLAGS,
  valued: DIFF_VALUED,
  long: [...DIFF_LONG, "--cached", "--staged", "--merge-base", "--no-index", "--base", "--ours", "--theirs"],
};

export interface GitSubcommandSpec {
  options: OptionSpec;
  /** Checks the positionals; returns why the call is not read-only, or undefined. */
  positionals?: (positionals: string[], options: string[]) => string | undefined;
  /** The first positional is a pattern, not a path (git grep), unless -e/-f is given. */
  patternFirst?: boolean;
  /** Options whose value is a file read. */
  readOptions?: readonly string[];
}

const listOnly =
  (what: string) =>
  (positionals: string[], options: string[]): string | undefined =>
    positionals.length === 0 || options.includes("--list") || options.includes("-l")
      ? undefined
      : `git ${what} with a name creates or changes a ${what}`;

const firstIn =
  (allowed: readonly string[], what: string) =>
  (positionals: string[]): string | undefined =>
    positionals.length === 0 || allowed.includes(positionals[0] as string)
      ? undefined
      : `git ${what} ${positionals[0]} changes the repository`;

export const GIT_READ_ONLY: Readonly<Record<string, GitSubcommandSpec>> = {
  status: {
    options: {
      flags: "sbvzunoralmi",
      long: words(
        "--short --branch --show-stash --porcelain[=] --long --verbose --untracked-files[=]",
        "--ignore-submodules[=] --ignored[=] --column[=] --no-column --ahead-behind",
        "--no-ahead-behind --renames --no-renames --find-renames[=] --null",
      ),
    },
  },
  log: { options: LOG },
  show: { options: LOG },
  whatchanged: { options: LOG },
  "rev-list": { options: LOG },
  shortlog: {
    options: {
      ...LOG,
      // In shortlog, -n is --numbered (a flag), not --max-count.
      flags: `${LOG.flags}sen`,
      valued: (LOG.valued ?? "").replace("n", ""),
      long: [...LOG_LONG, "--numbered", "--summary", "--email", "--committer", "--group="],
    },
  },
  diff: { options: DIFF },
  "diff-tree": {
    options: {
      ...DIFF,
      flags: `${DIFF_FLAGS}rtmscv`,
      long: [...(DIFF.long ?? []), "--root", "--no-commit-id", "--stdin"],
    },
  },
  "diff-index": { options: DIFF },
  "diff-files": { options: { ...DIFF, flags: `${DIFF_FLAGS}qc0123` } },
  branch: {
    options: {
      flags: "avrlqi",
      long: words(
        "--all --remotes --list --verbose --show-current --color[=] --no-color --column[=]",
        "--no-column --sort= --merged[=] --no-merged[=] --contains[=] --no-contains[=]",
        "--points-at= --format= --ignore-case --omit-empty --abbrev= --no-abbrev",
      ),
    },
    positionals: listOnly("branch"),
  },
  tag: {
    options: {
      flags: "ln0123456789i",
      long: words(
        "--list --sort= --contains[=] --no-contains[=] --merged[=] --no-merged[=] --points-at=",
        "--format= --color[=] --column[=] --no-column --ignore-case --omit-empty",
      ),
    },
    positionals: listOnly("tag"),
  },
  remote: {
    options: { flags: "v", long: ["--verbose"] },
    positionals: (positionals) =>
      positionals.length === 0 || (positionals[0] === "get-url" && positionals.length === 2)
        ? undefined
        : "git remote with a subcommand contacts or changes remotes",
  },
  "rev-parse": {
    options: {
      flags: "q",
      long: words(
        "--abbrev-ref[=] --short[=] --verify --quiet --show-toplevel --show-prefix --show-cdup",
        "--git-dir --git-common-dir --absolute-git-dir --is-inside-work-tree --is-inside-git-dir",
        "--is-bare-repository --is-shallow-repository --symbolic --symbolic-full-name --all",
        "--branches[=] --tags[=] --remotes[=] --show-superproject-working-tree --path-format=",
        "--git-path --default --revs-only --no-revs --flags --no-flags --sq --not",
        "--show-object-format[=] --show-ref-format --since= --until= --after= --before=",
      ),
    },
  },
  "ls-files": {
    options: {
      flags: "cdmoiksuvftz",
      valued: "x",
      long: words(
        "--cached --deleted --modified --others --ignored --stage --killed --unmerged --directory",
        "--no-empty-directory --eol --exclude= --exclude-standard --error-unmatch --full-name",
        "--recurse-submodules --abbrev[=] --deduplicate --format= --sparse --resolve-undo",
        "--with-tree= --exclude-per-directory=",
      ),
    },
  },
  "ls-tree": {
    options: {
      flags: "dtrz",
      long: words(
        "--name-only --name-status --object-only --full-name --full-tree --abbrev[=] --long",
        "--format=",
      ),
    },
  },
  blame: {
    options: {
      flags: "bclnpstwefM0123456789",
      valued: "L",
      long: words(
        "--root --show-stats --show-name --show-number --show-email --porcelain --line-porcelain",
        "--incremental --date= --progress --no-progress --first-parent --ignore-rev=",
        "--color-lines --color-by-age --minimal --abbrev= --encoding=",
      ),
    },
  },
  describe: {
    options: {
      long: words(
        "--all --tags --contains --abbrev= --candidates= --exact-match --debug --long --match=",
        "--exclude= --always --first-parent --dirty[=] --broken[=]",
      ),
    },
  },
  "cat-file": {
    options: {
      flags: "tspe",
      long: [
        "--batch[=]",
        "--batch-check[=]",
        "--batch-all-objects",
        "--unordered",
        "--buffer",
        "--mailmap",
        "--use-mailmap",
      ],
    },
  },
  reflog: { options: LOG, positionals: firstIn(["show", "exists"], "reflog") },
  grep: {
    options: {
      flags: "acEFGhHiIlLnovwWz0123456789",
      valued: "ABCefm",
      long: words(
        "--cached --untracked --no-index --no-exclude-standard --exclude-standard",
        "--recurse-submodules --text  --ignore-case --max-depth= --recursive",
        "--no-recursive --word-regexp --invert-match --full-name --extended-regexp --basic-regexp",
        "--perl-regexp --fixed-strings --line-number --column --files-with-matches --name-only",
        "--files-without-match --null --only-matching --count --color[=] --no-color --break",
        "--heading --show-function --context= --after-context= --before-context=",
        "--function-context --max-count= --threads= --and --or --not --all-match --quiet",
      ),
    },
    patternFirst: true,
    readOptions: ["-f"],
  },
  "merge-base": {
    options: { flags: "a", long: ["--all", "--octopus", "--independent", "--is-ancestor", "--fork-point"] },
  },
  "name-rev": {
    options: {
      long: ["--tags", "--refs=", "--exclude=", "--all", "--name-only", "--no-undefined", "--always"],
    },
  },
  "show-ref": {
    options: {
      flags: "qsd",
      long: words(
        "--head --tags --heads --branches --verify --dereference --hash[=] --abbrev[=] --quiet",
        "--exists",
      ),
    },
  },
  "for-each-ref": {
    options: {
      long: words(
        "--count= --sort= --format= --color[=] --shell --perl --python --tcl --points-at=",
        "--merged[=] --no-merged[=] --contains[=] --no-contains[=] --ignore-case --omit-empty",
        "--exclude=",
      ),
    },
  },
  "count-objects": { options: { flags: "vH", long: ["--verbose", "--human-readable"] } },
  stash: {
    options: LOG,
    positionals: (positionals) =>
      ["list", "show"].includes(positionals[0] ?? "")
        ? undefined
        : "git stash without list/show changes the stash",
  },
  worktree: {
    options: { flags: "vz", long: ["--porcelain", "--verbose", "--expire="] },
    positionals: (positionals) =>
      positionals[0] === "list" ? undefined : "git worktree without list changes worktrees",
  },
  "check-ignore": {
    options: { flags: "qvnz", long: ["--quiet", "--verbose", "--non-matching", "--no-index"] },
  },
  "check-attr": { options: { flags: "az", long: ["--all", "--cached", "--source="] } },
  var: { options: { flags: "l" } },
  version: { options: { long: ["--build-options"] } },
  config: {
    options: {
      flags: "lz",
      valued: "f",
      long: words(
        "--get --get-all --get-regexp --get-urlmatch --get-color --get-colorbool --list",
        "--local --global --system --worktree --file= --blob= --show-origin --show-scope --name-only",
        "--null --type= --bool --int --bool-or-int --path --expiry-date --default= --includes",
        "--no-includes --all --regexp --fixed-value",
      ),
    },
    positionals: (positionals, options) => {
      if (options.includes("--includes"))
        return "git config --includes also reads the files its include.path settings name";
      const reads = words(
        "--get --get-all --get-regexp --get-urlmatch --get-color --get-colorbool --list -l",
      );
      if (options.some((option) => reads.includes(option))) return undefined;
      if (positionals[0] === "get" || positionals[0] === "list") return undefined;
      if (positionals.length === 1 && positionals[0]?.includes(".")) return undefined;
      return "git config with a value writes the configuration";
    },
    readOptions: ["-f", "--file"],
  },
};

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
