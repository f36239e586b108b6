// Path arguments and redirect targets, expanded as bash expands them and resolved against every folder
// the shell may be in at that point (`cd x && ...` adds x; a failed cd keeps the old one) and through
// symlinks: outside the working directories asks; Read and Edit rules apply; writes to protected paths,
// writes whose target cannot be known, and removals of / or ~ ask in every mode.
import { resolve } from "node:path";
import { lstatOrUndefined, resolveSymlinks } from "../../permissions/paths.ts";
import type { ToolPermissionContext } from "../../tool/context.ts";
import { cdRulesChange, cdTarget } from "./cdTarget.ts";
import type { CommandView } from "./commandView.ts";
import { expandWord } from "./expand.ts";
import { checkGit, gitStartFolders } from "./gitPaths.ts";
import { hiddenTargets } from "./hiddenTargets.ts";
import { checkLinkTargets } from "./linkTargets.ts";
import { checkDerivedName, checkOptionOutputs } from "./namedWrites.ts";
import { checkAbsolute, checkPath, type PathCheck, unknownPath } from "./pathCheck.ts";
import {
  add,
  createScope,
  expansionOptions,
  type Finding,
  isInside,
  type Scope,
  variableChange,
} from "./pathScope.ts";
import { protectedBelow } from "./protectedReach.ts";
import type { Classification, PathUse } from "./readOnly.ts";
import { redirectAccess, writesThroughRedirect } from "./redirects.ts";
import { assignedVariables, PATH_STATE_VARIABLES } from "./shellVariables.ts";
import { checkUnknownArguments } from "./unknownArguments.ts";

export type { Finding } from "./pathScope.ts";
export { writesThroughRedirect };

const MAX_FOLDERS = 8;

export interface ValidationInput {
  view: CommandView;
  classification: Classification;
  /** Every program the command may run (a glob's matches, what a launcher starts): each is validated. */
  readings?: ReadonlyArray<{ view: CommandView; classification: Classification }>;
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
      ...expansionOptions(scope, base),
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
        const sources = expandWord(word, source.value, expansionOptions(scope, base));
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
    const word = use.word ?? (use.index === undefined ? undefined : view.words[use.index]);
    const check: PathCheck = {
      value: use.value,
      word,
      access: use.access,
      commandName: name,
      bases,
      recursive: use.recursive ?? false,
      ...(use.follows ? { follows: use.follows } : {}),
    };
    if (use.into && use.access === "write") checkDestination(check, use.into, view, scope);
    else checkPath(check, scope);
  }
  for (const hidden of hiddenTargets(view)) {
    if (hidden.kind === "unknown") unknownPath("unknown-target", hidden.reason, hidden.access, scope);
    else if (hidden.kind === "below")
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
    else if (hidden.kind === "copy") {
      const check: PathCheck = {
        value: hidden.destination.value,
        word: view.words[hidden.destination.index],
        access: "write",
        commandName: name,
        bases: scope.cwds,
        recursive: hidden.recursive,
      };
      const into = {
        sources: hidden.sources,
        recursive: hidden.recursive,
        noTargetDirectory: false,
        parents: false,
      };
      if (hidden.sources.length > 0) checkDestination(check, into, view, scope);
    } else for (const path of hidden.paths) checkDerivedName(view, name, path, scope);
  }
  checkOptionOutputs(view, name, scope);
  if (name === "ln") checkLinkTargets(view, scope);
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

/** The variables the path checks read that this command sets, for the commands after it. */
function rememberAssignments(view: CommandView, scope: Scope): void {
  const assigned = assignedVariables(view);
  if (assigned.any) scope.anyVariable ??= assigned.any;
  const by = view.argv[0] ?? "an assignment";
  for (const name of assigned.names)
    if (PATH_STATE_VARIABLES.has(name) && !scope.variables.has(name))
      scope.variables.set(name, `${by} (${name}=)`);
}

/** Follows one command's cd (if it is one) from every running state into the next states. */
function followCd(view: CommandView, running: readonly ShellState[], next: ShellState[], scope: Scope): void {
  for (const state of running) {
    const { cwd: _cwd, ...expansion } = expansionOptions(scope, state.cwd);
    const target = cdTarget(view, state.cwd, {
      env: scope.context.caller.env,
      ...expansion,
      ...(scope.cdRulesChanged ? { cdRulesChanged: scope.cdRulesChanged } : {}),
      variable: (name) => variableChange(scope, name, view.assignments),
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
  options: {
    safetyOnly?: boolean;
    operators?: readonly string[];
    assignedElsewhere?: readonly string[];
  } = {},
): Finding[] {
  const scope = createScope(context, cwd, options);
  // A line too complex to follow may set these anywhere (a loop variable, `${HOME:=x}`): from the start.
  for (const name of options.assignedElsewhere ?? [])
    if (PATH_STATE_VARIABLES.has(name))
      scope.variables.set(name, `a loop, expansion or arithmetic of the line (${name}=)`);
  if (!isInside(cwd, scope))
    add(scope, {
      check: "path-outside-working-dirs",
      reason: `the shell is in ${cwd}, outside the working directories`,
      safety: false,
    });
  let states: ShellState[] = [{ cwd, ok: true }];
  commands.forEach(({ view, classification, readings = [] }, index) => {
    const operator = index === 0 ? undefined : (options.operators?.[index - 1] ?? ";");
    const running = states.filter((state) => runsAfter(operator, state));
    const next = states.filter((state) => !runsAfter(operator, state));
    scope.cwds = [...new Set(running.map((state) => state.cwd))];
    scope.writing = [];
    validateCommand(view, classification, scope);
    for (const reading of readings)
      if (reading.view !== view) validateCommand(reading.view, reading.classification, scope);
    const all = [{ view, classification }, ...readings];
    if (all.some((reading) => relinks(reading.view, reading.classification)))
      scope.relinked.push(...scope.writing);
    followCd(view, running, next, scope);
    if (all.some((reading) => reading.classification.kind !== "read-only") || writesThroughRedirect(view))
      scope.filesMayChange = true;
    const globOption = globOptionChange(view);
    if (globOption) scope.globRulesChanged ??= globOption;
    scope.cdRulesChanged ??= cdRulesChange(view);
    rememberAssignments(view, scope);
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
