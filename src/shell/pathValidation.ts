// Path arguments and redirect targets, expanded as bash expands them and resolved against every folder
// the shell may be in at that point (`cd x && ...` adds x; a failed cd keeps the old one) and through
// symlinks: outside the working directories asks; Read and Edit rules apply; writes to protected paths,
// writes whose target cannot be known, and removals of / or ~ ask in every mode.
import { resolve } from "node:path";
import {
  danglingLinkTarget,
  isPathWithin,
  lstatOrUndefined,
  resolveSymlinks,
  systemFolderOf,
} from "../permissions/paths.ts";
import { type ToolPermissionContext, workingDirectories } from "../tool/context.ts";
import { cdRulesChange, cdTarget } from "./cdTarget.ts";
import type { CommandView } from "./commandView.ts";
import { expandTilde, expandWord } from "./expand.ts";
import { checkGit, gitStartFolders } from "./gitPaths.ts";
import { hiddenTargets } from "./hiddenTargets.ts";
import { checkArgumentRules, checkPathRules } from "./pathRuleFindings.ts";
import {
  add,
  createScope,
  type Finding,
  hasPathRules,
  isInside,
  type PathAccess,
  protectedReasonOf,
  type Scope,
} from "./pathScope.ts";
import { REMOVERS } from "./programs.ts";
import { protectedBelow, protectedInside } from "./protectedReach.ts";
import type { Classification, PathUse } from "./readOnly.ts";
import { HARMLESS_DEVICES, redirectAccess, writesThroughRedirect } from "./redirects.ts";
import { criticalRemovalReason } from "./security/dangerousRemoval.ts";
import type { Word } from "./words.ts";

export type { Finding } from "./pathScope.ts";
export { writesThroughRedirect };

const MAX_FOLDERS = 8;

/** A path whose value cannot be known: a write could reach a protected path, a read a ruled one. */
function unknownPath(
  check: string,
  reason: string,
  access: PathAccess,
  scope: Scope,
  mayNameProtected = true,
): void {
  const safety = (access === "write" && mayNameProtected) || hasPathRules(scope, access);
  add(scope, { check, reason, safety });
}

function checkAbsolute(
  abs: string,
  base: string,
  access: PathAccess,
  commandName: string,
  scope: Scope,
  recursive = false,
): void {
  if (HARMLESS_DEVICES.test(abs)) return;
  if (access === "write") scope.writing.push(abs);
  const moved = scope.relinked.find((path) => isPathWithin(abs, path));
  if (moved) {
    unknownPath(
      "changed-path",
      `${commandName} uses ${abs}, which ${moved === abs ? "is" : "is inside"} ${moved}, moved or linked earlier in this command; what it holds then is unknown`,
      access === "cd" ? "read" : access,
      scope,
    );
    return;
  }
  // Writing a folder (mv, rm -r, chmod -R) changes everything in it.
  const whole = recursive || (access === "write" && lstatOrUndefined(abs)?.isDirectory() === true);
  const key = `${access}\0${commandName}\0${whole}\0${recursive}\0${abs}\0${base}`;
  if (scope.checked.has(key)) return;
  scope.checked.add(key);
  if (access === "write") {
    const protectedReason = protectedReasonOf(abs, base, scope);
    if (protectedReason)
      add(scope, { check: "protected-path", reason: `writes ${protectedReason}`, safety: true });
    // A write that changes everything in a folder changes the protected entries it holds.
    const held =
      recursive && !protectedReason && !REMOVERS.has(commandName) ? protectedInside(abs, scope) : undefined;
    if (held)
      add(scope, {
        check: "protected-path",
        reason: `${commandName} changes everything in ${abs}, which holds ${held}`,
        safety: true,
      });
    if (REMOVERS.has(commandName)) {
      const critical = criticalRemovalReason(abs);
      if (critical) add(scope, { check: "dangerous-removal", reason: critical, safety: true });
    }
  }
  checkPathRules(abs, base, access, commandName, scope, whole);
  // A file with more than one name may be the same file as one outside (a hard link): no path shows
  // where its other names are, so changing it is not an edit inside the working directories.
  const stats = access === "write" ? lstatOrUndefined(abs) : undefined;
  if (stats?.isFile() && stats.nlink > 1)
    add(scope, {
      check: "hard-link",
      reason: `${commandName} writes ${abs}, which has ${stats.nlink} names (a hard link may lead outside)`,
      safety: false,
    });
  // A write through a dangling link creates the link's target: name it where it is judged.
  const target = access === "write" ? danglingLinkTarget(abs) : undefined;
  if (!isInside(abs, scope)) {
    const verb = access === "write" ? "writes" : access === "cd" ? "changes directory to" : "reads";
    const where = target && target !== abs ? target : abs;
    add(scope, {
      check: "path-outside-working-dirs",
      reason: `${commandName} ${verb} ${where}, outside the working directories`,
      safety: false,
    });
  }
}

/** Removing a working directory itself (or a folder holding one) is never a routine edit. */
function checkWorkingDirRemoval(abs: string, commandName: string, scope: Scope): void {
  const roots = workingDirectories(scope.context).map((dir) => resolve(dir));
  if (roots.some((root) => isPathWithin(root, abs)))
    add(scope, {
      check: "working-dir-removal",
      reason: `${commandName} would remove the working directory ${abs}`,
      safety: false,
    });
}

interface PathCheck {
  value: string;
  word: Word | undefined;
  access: PathAccess;
  commandName: string;
  /** Folders the path is relative to (the shell's, or git's after -C). */
  bases: readonly string[];
  recursive?: boolean;
}

function checkPath(check: PathCheck, scope: Scope): void {
  const { value, word, access, commandName } = check;
  if (value === "" || value === "-") return;
  if (!value.startsWith("/") && !value.startsWith("~") && scope.cwdUnknown) {
    unknownPath(
      "cwd-unknown",
      `${commandName} uses the relative path ${value} after a cd the analyzer cannot follow`,
      access,
      scope,
    );
    return;
  }
  for (const base of check.bases) {
    const expansion = expandWord(word, value, {
      cwd: base,
      filesMayChange: scope.filesMayChange,
      forWrite: access === "write",
      ...(scope.globRulesChanged ? { globRulesChanged: scope.globRulesChanged } : {}),
    });
    if (expansion.kind === "unknown") {
      unknownPath(
        expansion.check,
        `${commandName}: ${expansion.reason}`,
        access,
        scope,
        expansion.mayNameProtected,
      );
      return;
    }
    const startsWithGlob = word?.glob === true && /^[*?[]/.test(value);
    for (const match of expansion.globMatches) {
      if (startsWithGlob && match.replace(/^.*\//, "").startsWith("-"))
        add(scope, {
          check: "glob-path",
          reason: `the glob ${value} would match ${match}, which reads as an option`,
          safety: false,
        });
    }
    for (const path of expansion.paths) {
      const abs = resolve(base, path);
      checkAbsolute(abs, base, access, commandName, scope, check.recursive);
      // The kernel applies `link/..` to the link's target (its parent), not to the text.
      if (/(^|\/)\.\.(\/|$)/.test(path)) {
        const physical = resolveSymlinks(path.startsWith("/") ? path : `${base}/${path}`);
        if (physical !== abs) checkAbsolute(physical, base, access, commandName, scope, check.recursive);
      }
      if (word?.glob !== true && access === "write" && REMOVERS.has(commandName))
        checkWorkingDirRemoval(abs, commandName, scope);
    }
  }
}

/**
 * What in one argument of an unknown program may be a path: the word; the value after `=`
 * (`--file=x`, dd's `if=x`); a value glued to a short option (`-o.git/config`, `-xvf.git`); and
 * without a leading `@` (`curl -d @.env`).
 */
function argumentPaths(arg: string): string[] {
  const found: string[] = [];
  if (!arg.startsWith("-")) found.push(arg);
  if (arg.includes("=")) found.push(arg.slice(arg.indexOf("=") + 1));
  // A file URL names a local file (`curl file:///etc/passwd`, `--url=file://localhost/x`).
  const url = arg.match(/(?:^|=)file:(?:\/\/(?:localhost)?)?(\/[^?#]*)/i);
  if (url) found.push(decodeURIComponentSafely(url[1] as string));
  const short = arg.match(/^-([A-Za-z]+)(.+)$/);
  if (short && !arg.startsWith("--"))
    for (let i = 1; i <= (short[1] as string).length; i++) found.push(arg.slice(1 + i));
  return [
    ...new Set(found.flatMap((path) => (path.startsWith("@") ? [path, path.slice(1)] : [path]))),
  ].filter((path) => path !== "");
}

function decodeURIComponentSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Programs that read the current folder whole when given no folder: after a pattern (grep -R x, ag x), or at all (du). */
const PATTERN_SEARCHERS = new Set("grep egrep fgrep rgrep rg ag ack ack-grep ugrep ug pt sift".split(" "));
const FOLDER_READERS = new Set("tree du fd fdfind find ls".split(" "));

/** Whether a program the analyzer does not understand may read the current folder without naming it. */
function readsCurrentFolder(argv: readonly string[]): boolean {
  const name = argv[0] ?? "";
  const operands = argv.slice(1).filter((arg) => !arg.startsWith("-")).length;
  return (PATTERN_SEARCHERS.has(name) && operands <= 1) || (FOLDER_READERS.has(name) && operands === 0);
}

/** One argument of an unknown program, as a path it may read or write: Read/Edit rules, protected paths. */
function checkUnknownPath(path: string, cwd: string, name: string, scope: Scope): void {
  const abs = resolve(cwd, path);
  if (HARMLESS_DEVICES.test(abs)) return;
  checkArgumentRules(abs, cwd, name, scope);
  if (systemFolderOf(abs)) return;
  const reason = protectedReasonOf(abs, cwd, scope);
  if (reason) add(scope, { check: "protected-path", reason: `${name} may write ${reason}`, safety: true });
}

/**
 * Arguments of a command the analyzer does not know: any may be a file it reads or writes, as bash
 * expands it (globs, braces, `~`), and a searcher given no folder reads the current one.
 */
function checkUnknownArguments(view: CommandView, scope: Scope): void {
  const written = view.written.simple.argv;
  const name = written[0] ?? "";
  if (readsCurrentFolder(view.argv)) for (const cwd of scope.cwds) checkUnknownPath(".", cwd, name, scope);
  for (let i = 1; i < written.length; i++) {
    const arg = written[i] as string;
    const word = view.written.words[i];
    if (word?.dynamic || word?.unknown) continue;
    for (const candidate of argumentPaths(arg)) {
      for (const cwd of scope.cwds) {
        // The whole word is expanded by bash; a value inside an option word only has its `~` read.
        const whole = candidate === arg && !arg.startsWith("-");
        const expansion = whole
          ? expandWord(word, arg, { cwd, filesMayChange: scope.filesMayChange })
          : undefined;
        if (expansion?.kind === "unknown") {
          unknownPath(expansion.check, `${name}: ${expansion.reason}`, "read", scope, false);
          unknownPath(expansion.check, `${name}: ${expansion.reason}`, "write", scope, false);
          continue;
        }
        const tilde = word?.tilde || candidate.startsWith("~") ? expandTilde(candidate) : candidate;
        const paths = expansion ? expansion.paths : tilde === undefined ? [] : [tilde];
        for (const path of paths) if (path !== "") checkUnknownPath(path, cwd, name, scope);
      }
    }
  }
}

export interface ValidationInput {
  view: CommandView;
  classification: Classification;
}

/** Where the shell may be, and whether the last command may have succeeded there. */
interface ShellState {
  cwd: string;
  ok: boolean;
}

function runsAfter(operator: string | undefined, state: ShellState): boolean {
  if (operator === "&&") return state.ok;
  if (operator === "||") return !state.ok;
  return true;
}

/** Each (cwd, ok) pair once, in order of first appearance; keyed by folder to avoid building strings. */
function dedupe(states: ShellState[]): ShellState[] {
  const seen = new Map<string, number>();
  const kept: ShellState[] = [];
  for (const state of states) {
    const bit = state.ok ? 1 : 2;
    const mask = seen.get(state.cwd) ?? 0;
    if (mask & bit) continue;
    seen.set(state.cwd, mask | bit);
    kept.push(state);
  }
  return kept;
}

function basesFor(use: PathUse, view: CommandView, scope: Scope): readonly string[] | undefined {
  if (!use.fromGitStart) return scope.cwds;
  return gitStartFolders(view, scope);
}

/** A file or folder's stats, following links (a destination link to a folder is written into). */
function statFollowing(abs: string) {
  return lstatOrUndefined(resolveSymlinks(abs));
}

/**
 * cp/mv's destination: a folder receives each source under its own name (and, for a recursive copy,
 * the protected entries below that source); where the names are not known the folder is changed whole.
 */
function checkDestination(
  check: PathCheck,
  into: NonNullable<PathUse["into"]>,
  view: CommandView,
  scope: Scope,
): void {
  // A destination relative to an unknown folder, or whose value is unknown: judged as a plain write.
  if (scope.cwdUnknown && !/^[/~]/.test(check.value)) {
    checkPath(check, scope);
    return;
  }
  for (const base of check.bases) {
    const expansion = expandWord(check.word, check.value, {
      cwd: base,
      filesMayChange: scope.filesMayChange,
      forWrite: true,
    });
    if (expansion.kind === "unknown") {
      checkPath(check, scope);
      return;
    }
    for (const path of expansion.paths) {
      const abs = resolve(base, path);
      if (!statFollowing(abs)?.isDirectory() && !check.value.endsWith("/")) {
        checkPath({ ...check, value: path, word: undefined, bases: [base] }, scope);
        continue;
      }
      for (const source of into.sources) {
        const word = source.index === undefined ? undefined : view.words[source.index];
        const sources = expandWord(word, source.value, { cwd: base, filesMayChange: scope.filesMayChange });
        // A source whose name is not known may land under any name: the folder is changed whole.
        for (const from of sources.kind === "paths" ? sources.paths : [undefined]) {
          const trimmed = from?.replace(/\/+$/, "");
          const name = into.parents && !from?.startsWith("/") ? trimmed : trimmed?.replace(/^.*\//, "");
          const whole =
            from === undefined || into.noTargetDirectory || !name || name === "." || name === "..";
          const target = whole ? abs : resolve(abs, name);
          checkAbsolute(target, base, "write", check.commandName, scope, whole);
          if (!into.recursive || from === undefined) continue;
          const origin = resolve(base, from);
          if (!statFollowing(origin)?.isDirectory()) continue;
          const below = protectedBelow(origin);
          if (below === undefined)
            add(scope, {
              check: "protected-path",
              reason: `${check.commandName} copies ${origin}, too large to look through for protected folders, into ${target}`,
              safety: true,
            });
          for (const entry of below ?? [])
            checkAbsolute(resolve(target, entry), base, "write", check.commandName, scope);
        }
      }
    }
  }
}

function validateCommand(view: CommandView, classification: Classification, scope: Scope): void {
  const name = view.argv[0] ?? view.written.simple.argv[0] ?? "";
  for (const use of classification.paths) {
    if (use.access === "cd") continue;
    const bases = basesFor(use, view, scope);
    if (!bases) continue;
    const word = use.index === undefined ? undefined : view.words[use.index];
    const check: PathCheck = {
      value: use.value,
      word,
      access: use.access,
      commandName: name,
      bases,
      recursive: use.recursive ?? false,
    };
    if (use.into && use.access === "write") checkDestination(check, use.into, view, scope);
    else checkPath(check, scope);
  }
  for (const hidden of hiddenTargets(view)) {
    if (hidden.kind === "unknown") unknownPath("unknown-target", hidden.reason, hidden.access, scope);
    else
      for (const folder of hidden.folders)
        checkPath(
          {
            value: folder.value,
            word: folder.index === undefined ? undefined : view.words[folder.index],
            access: "write",
            commandName: name,
            bases: scope.cwds,
            recursive: true,
          },
          scope,
        );
  }
  if (classification.kind === "other") checkUnknownArguments(view, scope);
  // git -C folders are where git reads from (and whose repository it uses).
  for (const start of view.argv[0] === "git" ? (gitStartFolders(view, scope) ?? []) : [])
    if (!scope.cwds.includes(start)) checkAbsolute(start, start, "read", "git -C", scope);
  checkGit(view, classification, scope);
  for (const redirect of view.redirects) {
    const access = redirectAccess(redirect);
    if (access)
      checkPath(
        {
          value: redirect.target?.value ?? "",
          word: redirect.target,
          access,
          commandName: name || "redirect",
          bases: scope.cwds,
        },
        scope,
      );
  }
}

const GLOB_VARIABLES = /^(GLOBIGNORE|GLOBSORT|FIGNORE)$/;
/** Programs that move files or make links (cp copies links as links when recursive or told to keep them). */
const RELINKERS = new Set(["mv", "ln", "rsync", "tar", "unzip", "cpio", "bsdtar", "7z", "git"]);

/** Whether what this command writes may afterwards be a moved file, a link or unpacked content. */
function relinks(view: CommandView, classification: Classification): boolean {
  const name = view.argv[0] ?? "";
  if (RELINKERS.has(name)) return true;
  if (name === "cp")
    return view.argv.some((arg) =>
      /^-[a-zA-Z]*[aRrPd]|^--(archive|recursive|no-dereference|preserve)/.test(arg),
    );
  return classification.kind === "other";
}

/** A command that changes how the rest of the line's globs match: shopt (dotglob, nocaseglob...), set, GLOBIGNORE=. */
function globOptionChange(view: CommandView): string | undefined {
  const name = view.argv[0];
  if (name === "shopt" || name === "set" || name === "setopt" || name === "unsetopt") return name;
  return view.assignments.find((assignment) => GLOB_VARIABLES.test(assignment.name))?.name;
}

/** Follows one command's cd (if it is one) from every running state into the next states. */
function followCd(view: CommandView, running: readonly ShellState[], next: ShellState[], scope: Scope): void {
  for (const state of running) {
    const target = cdTarget(view, state.cwd, {
      filesMayChange: scope.filesMayChange,
      ...(scope.globRulesChanged ? { globRulesChanged: scope.globRulesChanged } : {}),
      ...(scope.cdRulesChanged ? { cdRulesChanged: scope.cdRulesChanged } : {}),
    });
    if (target.kind === "unknown") {
      scope.cwdUnknown = true;
      add(scope, { check: "cwd-unknown", reason: target.reason, safety: false });
    } else if (target.kind === "go") {
      for (const folder of target.folders) {
        checkAbsolute(folder, state.cwd, "cd", view.argv[0] ?? "cd", scope);
        next.push({ cwd: folder, ok: true });
      }
    } else next.push({ cwd: state.cwd, ok: true });
    next.push({ cwd: state.cwd, ok: false });
  }
}

/**
 * Validates the paths of commands in order. The shell's folder is followed through cd together with
 * the operators: after `cd x && a`, a runs in x; after `cd x; a`, in x or (if cd failed) where it was.
 */
export function validatePaths(
  commands: readonly ValidationInput[],
  cwd: string,
  context: ToolPermissionContext,
  options: { safetyOnly?: boolean; operators?: readonly string[] } = {},
): Finding[] {
  const scope = createScope(context, cwd, options);
  if (!isInside(cwd, scope))
    add(scope, {
      check: "path-outside-working-dirs",
      reason: `the shell is in ${cwd}, outside the working directories`,
      safety: false,
    });
  let states: ShellState[] = [{ cwd, ok: true }];
  commands.forEach(({ view, classification }, index) => {
    const operator = index === 0 ? undefined : (options.operators?.[index - 1] ?? ";");
    const running = states.filter((state) => runsAfter(operator, state));
    const next = states.filter((state) => !runsAfter(operator, state));
    scope.cwds = [...new Set(running.map((state) => state.cwd))];
    scope.writing = [];
    validateCommand(view, classification, scope);
    if (relinks(view, classification)) scope.relinked.push(...scope.writing);
    followCd(view, running, next, scope);
    if (classification.kind !== "read-only" || writesThroughRedirect(view)) scope.filesMayChange = true;
    const globOption = globOptionChange(view);
    if (globOption) scope.globRulesChanged ??= globOption;
    scope.cdRulesChanged ??= cdRulesChange(view);
    states = dedupe(next);
    if (new Set(states.map((state) => state.cwd)).size > MAX_FOLDERS) {
      scope.cwdUnknown = true;
      add(scope, {
        check: "cwd-unknown",
        reason: `the command may be in more than ${MAX_FOLDERS} folders after its cd commands`,
        safety: false,
      });
      states = [{ cwd, ok: true }];
    }
  });
  return scope.findings;
}
