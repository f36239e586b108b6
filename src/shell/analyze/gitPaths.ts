// git's own paths: the folders it starts in (-C, each expanded as bash would), the repository it then
// uses (asking unless it lives in a protected .git folder), and, for subcommands that print what files
// hold, a read of that repository's whole work tree for the Read rules.
import { resolve } from "node:path";
import { remembered, resolveSymlinks } from "../../permissions/paths.ts";
import type { CommandView } from "./commandView.ts";
import { expandWord } from "./expand.ts";
import { checkPrintedContent } from "./gitPrinted.ts";
import { discoverRepository, isProtectedGitDir, type Repository } from "./gitRepository.ts";
import { readGitGlobals } from "./gitSpec.ts";
import { add, expansionOptions, type Scope } from "./pathScope.ts";
import type { Classification } from "./readOnly.ts";

const GIT_ENVIRONMENT =
  /^GIT_(DIR|WORK_TREE|COMMON_DIR|CONFIG|CONFIG_GLOBAL|CONFIG_SYSTEM|EXEC_PATH|CEILING_DIRECTORIES)$/;

/** The folders git starts in, one per shell folder after its -C options, or undefined when unknown. */
export function gitStartFolders(view: CommandView, scope: Scope): string[] | undefined {
  const known = scope.gitStarts.get(view);
  if (known !== undefined || scope.gitStarts.has(view)) return known;
  const starts = findStartFolders(view, scope);
  scope.gitStarts.set(view, starts);
  return starts;
}

function findStartFolders(view: CommandView, scope: Scope): string[] | undefined {
  const globals = readGitGlobals(view.argv);
  let folders = [...scope.cwds];
  for (const global of globals.paths) {
    if (global.option !== "-C") continue;
    const next: string[] = [];
    for (const folder of folders) {
      const expansion = expandWord(view.words[global.index], global.value, expansionOptions(scope, folder));
      if (expansion.kind === "unknown") {
        add(scope, { check: "git-repository", reason: `git -C: ${expansion.reason}`, safety: false });
        return undefined;
      }
      const candidates = expansion.globMatches.length > 0 ? expansion.globMatches : expansion.paths;
      // -C is a chdir: `..` applies to where a link leads, not to the text.
      for (const candidate of candidates)
        next.push(resolveSymlinks(candidate.startsWith("/") ? candidate : `${folder}/${candidate}`));
    }
    folders = [...new Set(next)];
  }
  return folders;
}

function flag(scope: Scope, reason: string): void {
  add(scope, { check: "git-repository", reason, safety: false });
}

/** The repository each start folder leads to, judged; returns the work trees whose files git may print, with their repository when it is a work tree's own. */
function judgeRepositories(
  view: CommandView,
  starts: readonly string[],
  scope: Scope,
): Array<{ workTree: string; repository?: Repository }> {
  const globals = readGitGlobals(view.argv);
  const gitDir = globals.paths.find((global) => global.option === "--git-dir");
  const workTrees: Array<{ workTree: string; repository?: Repository }> = [];
  for (const start of starts) {
    if (gitDir) {
      const expansion = expandWord(view.words[gitDir.index], gitDir.value, expansionOptions(scope, start));
      const dirs = expansion.kind === "paths" ? expansion.paths.map((path) => resolve(start, path)) : [];
      if (dirs.length === 0 || dirs.some((dir) => !isProtectedGitDir(dir)))
        flag(scope, `git --git-dir=${gitDir.value} uses a repository that is not a .git folder`);
      workTrees.push({ workTree: start });
      continue;
    }
    if (globals.bare) {
      if (!isProtectedGitDir(start)) flag(scope, `git --bare takes ${start} as its repository`);
      workTrees.push({ workTree: start });
      continue;
    }
    const repository = remembered(scope.repositories, start, () => discoverRepository(start));
    if (repository && !repository.trusted)
      flag(
        scope,
        `git would use ${repository.gitDir} as its repository, which is not a .git folder of a work tree`,
      );
    const workTree = repository?.workTree ?? start;
    const worktreeOption = globals.paths.some((global) => global.option === "--work-tree");
    workTrees.push(repository?.trusted && !worktreeOption ? { workTree, repository } : { workTree });
  }
  return workTrees;
}

/** git run against whatever repository its folders, options and environment lead to. */
export function checkGit(view: CommandView, classification: Classification, scope: Scope): void {
  if (view.argv[0] !== "git") return;
  const steering = view.assignments.find((assignment) => GIT_ENVIRONMENT.test(assignment.name));
  if (steering) flag(scope, `${steering.name}= tells git which repository and configuration to use`);
  const starts = gitStartFolders(view, scope);
  if (!starts) return;
  const workTrees = judgeRepositories(view, starts, scope);
  if (!classification.readsRepository) return;
  const seen = new Set<string>();
  for (const { workTree, repository } of workTrees) {
    if (seen.has(workTree)) continue;
    seen.add(workTree);
    checkPrintedContent(view, repository, workTree, scope);
  }
}
