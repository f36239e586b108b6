// Read rules against what a git command that prints file contents (diff, log -p, show, grep...) can
// print: when the command names no object git could resolve to arbitrary content, that is the paths of
// its repository's index and history (gitContent.ts), and a rule asks only if it covers one of them.
// Otherwise (an object id, `rev:path`, a tag, --no-index, submodules, a line that changed files before
// it) the work tree is judged whole, as any recursive read: a rule that may reach into it asks.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { compiledRuleMatches, compilePathRule } from "../../permissions/pathRules.ts";
import { resolveSymlinks } from "../../permissions/paths.ts";
import { formatRuleValue } from "../../permissions/rules.ts";
import type { CommandView } from "./commandView.ts";
import { printablePaths } from "./gitContent.ts";
import type { Repository } from "./gitRepository.ts";
import { readGitGlobals } from "./gitSpec.ts";
import { words } from "./options.ts";
import { checkPathRules } from "./pathRuleFindings.ts";
import { add, hasPathRules, type Scope } from "./pathScope.ts";

/** Subcommands that print only commits' changes (an operand is a commit or a path, never a blob). */
const COMMIT_WALKERS = new Set(words("log whatchanged shortlog reflog"));
/** Subcommands that print the index, the work tree's tracked files, or what their operands name. */
const NAMED_PRINTERS = new Set(words("diff diff-files diff-index diff-tree show grep stash blame"));
/** Options that reach past the repository's own paths: files outside it, untracked files, submodules, input lists. */
const REACHES_PAST =
  /^--(no-index|untracked|no-exclude-standard|stdin|submodule|recurse-submodules|contents|ignore-revs-file|find-object)/;
const RELATIVE_TO_HEAD = /^(HEAD|@)([~^]\d*|@\{\d+\})*$/;

/** Whether a revision surely names a commit: HEAD-relative, a stash entry, or a branch (local or remote). */
function namesCommit(revision: string, repository: Repository): boolean {
  if (RELATIVE_TO_HEAD.test(revision) || /^stash(@\{\d+\})?$/.test(revision)) return true;
  if (!/^[A-Za-z0-9._/-]+([~^]\d*)*$/.test(revision) || /(^|\/)\.|\.\.|\/$/.test(revision)) return false;
  const name = revision.replace(/([~^]\d*)+$/, "");
  const common = commonDirOf(repository.gitDir);
  if (["heads", "remotes"].some((kind) => existsSync(join(common, "refs", kind, name)))) return true;
  try {
    const packed = readFileSync(join(common, "packed-refs"), "utf8");
    return packed.includes(` refs/heads/${name}\n`) || packed.includes(` refs/remotes/${name}\n`);
  } catch {
    return false;
  }
}

function commonDirOf(gitDir: string): string {
  try {
    return resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim());
  } catch {
    return gitDir;
  }
}

/**
 * What this git command can print the contents of: the index's paths only (`git diff`, `git grep` with
 * no revision), those and the history's (every operand before `--` a revision that surely names a
 * commit, for log any but an object id, or an existing path), or more (undefined).
 */
function printedScope(
  view: CommandView,
  repository: Repository,
  cwds: readonly string[],
): "index" | "history" | undefined {
  const globals = readGitGlobals(view.argv);
  const subcommand = view.argv[globals.subcommandIndex] ?? "";
  if (!COMMIT_WALKERS.has(subcommand) && !NAMED_PRINTERS.has(subcommand)) return undefined;
  const rest = view.argv.slice(globals.subcommandIndex + 1);
  const end = rest.indexOf("--");
  const options = end === -1 ? rest : rest.slice(0, end);
  if (options.some((arg) => REACHES_PAST.test(arg))) return undefined;
  let operands = options.filter((arg) => !arg.startsWith("-"));
  // An option's value read as an operand (`-n 5`) is a number; grep's first operand is its pattern.
  if (subcommand === "grep") operands = operands.slice(1);
  if (subcommand === "stash") operands = operands.filter((arg) => arg !== "show" && arg !== "list");
  const isPath = (operand: string) => cwds.every((cwd) => existsSync(resolve(cwd, operand)));
  // The work tree against the index (grep: the tracked files, or with --cached the index): no history.
  const againstHead = options.some((arg) => /^--(cached|staged|merge-base|base|ours|theirs)/.test(arg));
  const indexOnly =
    subcommand === "grep" || ((subcommand === "diff" || subcommand === "diff-files") && !againstHead);
  if (indexOnly && operands.every(isPath)) return "index";
  const known = operands.every((operand) => {
    if (/^\d+$/.test(operand)) return true;
    const revisions = operand.split(/\.\.\.?/).filter((part) => part !== "");
    if (revisions.length > 0 && revisions.every((revision) => namesCommit(revision, repository))) return true;
    // log walks commits only: any name but an object id (which may be a dangling commit) is a commit or a path.
    if (COMMIT_WALKERS.has(subcommand) && !/[0-9a-f]{4,}/i.test(operand) && !/[:{]|_HEAD/.test(operand))
      return true;
    return isPath(operand);
  });
  return known ? "history" : undefined;
}

/**
 * Read rules against what a git command that prints file contents may print from `repository`
 * (started in `cwds`): the paths of its index and history, when they are all it can print.
 */
export function checkPrintedContent(
  view: CommandView,
  repository: Repository | undefined,
  workTree: string,
  scope: Scope,
): void {
  if (!hasPathRules(scope, "read")) return;
  const printed =
    repository?.workTree !== undefined && !scope.filesMayChange
      ? printedScope(view, repository, scope.cwds)
      : undefined;
  const printable =
    printed && repository?.workTree
      ? printablePaths(repository.gitDir, repository.workTree, printed === "history")
      : undefined;
  if (printable?.kind !== "paths") {
    checkPathRules(workTree, workTree, "read", "git", scope, true);
    return;
  }
  // git prints such a path only if it changed (diff) or in the commits that changed it: it asks, not denies.
  const covered = coveredPath(printable, workTree, scope);
  if (covered)
    add(scope, {
      check: "path-rule",
      reason: `git may print ${covered.path}, which is tracked or staged (or in the history it shows), and ${covered.rule} covers`,
      safety: true,
    });
}

/** Answers per listing (a listing is kept while its repository does not change), by work tree and rules. */
const answers = new WeakMap<object, Map<string, { path: string; rule: string } | null>>();

/**
 * The first listed path a Read deny or ask rule covers. Repository paths are names, not files to
 * resolve: each is matched as it lies below the work tree (as written, and with the work tree's own
 * links resolved), with the rules compiled once.
 */
function coveredPath(
  printable: { paths: readonly string[] },
  workTree: string,
  scope: Scope,
): { path: string; rule: string } | undefined {
  const rules = [...scope.rules.read.deny, ...scope.rules.read.ask];
  const key = `${workTree}\0${rules.map((rule) => `${rule.behavior}:${rule.source}:${rule.value.ruleContent ?? ""}`).join("\0")}`;
  let known = answers.get(printable);
  if (!known) {
    known = new Map();
    answers.set(printable, known);
  }
  const remembered = known.get(key);
  if (remembered !== undefined) return remembered ?? undefined;
  const compiled = rules.map((rule) => ({
    rule,
    compiled:
      rule.value.ruleContent === undefined
        ? undefined
        : compilePathRule(rule.value.ruleContent, rule.source, scope.context),
  }));
  const roots = [...new Set([workTree, resolveSymlinks(workTree)])];
  let found: { path: string; rule: string } | null = null;
  search: for (const path of printable.paths)
    for (const root of roots) {
      const abs = `${root}${sep}${path.split("/").join(sep)}`;
      const hit = compiled.find(
        ({ rule, compiled: match }) => match === undefined || compiledRuleMatches(match, abs, rule.behavior),
      );
      if (hit) {
        found = {
          path: abs,
          rule: `the ${hit.rule.source} rule ${hit.rule.behavior} ${formatRuleValue(hit.rule.value)}`,
        };
        break search;
      }
    }
  known.set(key, found);
  return found ?? undefined;
}
