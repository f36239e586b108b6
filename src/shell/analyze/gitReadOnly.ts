// git's read-only subcommands: for each, the options it takes and what its positionals may be. A
// subcommand or option not listed here is not read-only (gitSpec.ts applies the table).
import { type OptionSpec, words } from "./options.ts";

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
