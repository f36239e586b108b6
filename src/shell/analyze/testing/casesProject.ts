// The project the bash cases run in: the test project plus what the cases' `needs_fs` notes describe
// (symlinks out of it) and the files our own extra cases use.
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PermissionMode } from "../../../permissions/types.ts";
import type { ToolUseContext } from "../../../tool/context.ts";
import { createToolUseContext } from "../../../tool/createContext.ts";
import type { Tools } from "../../../tool/Tool.ts";
import { type BashCase, EXTRA_CASES, loadBashCases, SHARED_CASES_FILE } from "./bashExtraCases.ts";
import { createTestProject, type TestProject } from "./project.ts";

/** Sets up what a needs_fs case describes: "<dir>/ is a symlink to $HOME" and the like. */
function prepareFilesystem(project: TestProject, testCase: BashCase): void {
  const link = testCase.why?.match(/(\S+?)\/? is a symlink to (\$HOME|~|\/\S+)/);
  if (!link) return;
  const name = (link[1] as string).replace(/^\/project\//, "");
  const path = join(project.root, name);
  if (!existsSync(path)) symlinkSync(project.outside, path);
}

function setUpExtraFilesystem(project: TestProject): void {
  // linked/ holds a symlink that leads out of the project; globs over it must not be allowed.
  mkdirSync(join(project.root, "linked"), { recursive: true });
  writeFileSync(join(project.root, "linked", "ok.txt"), "ok\n");
  writeFileSync(join(project.outside, "secret"), "secret\n");
  symlinkSync(join(project.outside, "secret"), join(project.root, "linked", "key"));
  writeFileSync(join(project.root, "list.txt"), "src/app.ts\n");
}

export const SHARED_CASES: BashCase[] = loadBashCases(SHARED_CASES_FILE);

/** A test project ready for every shared and extra case. */
export function createCasesProject(): TestProject {
  const project = createTestProject();
  setUpExtraFilesystem(project);
  for (const testCase of [...SHARED_CASES, ...EXTRA_CASES])
    if (testCase.needs_fs) prepareFilesystem(project, testCase);
  return project;
}

/** The case's command with `/project` replaced by the real root. */
export function caseCommand(testCase: BashCase, project: TestProject): string {
  return testCase.command.split(testCase.context.cwd_root ?? "/project").join(project.root);
}

/**
 * A session for one case: its rules (source "project") and mode, rooted in the project; `confinement`
 * says whether Bash calls can run confined (default true, as where bubblewrap works: the same on every machine).
 */
export function caseContext(
  testCase: BashCase,
  project: TestProject,
  tools: Tools,
  mode?: PermissionMode,
  confinement = true,
): ToolUseContext {
  return createToolUseContext({
    confinement,
    tools,
    cwd: project.root,
    mode: mode ?? ((testCase.context.mode ?? "default") as PermissionMode),
    allow: testCase.context.allow_rules ?? [],
    deny: testCase.context.deny_rules ?? [],
    ask: testCase.context.ask_rules ?? [],
    ruleSource: "project",
  });
}
