// Every public bypass case of shared/security/bash-cases.jsonl, plus our own adversarial cases, through
// the real decision path: decidePermission with the real Bash tool, the case's rules (source
// "project") and mode, in a real temporary project. Any `allow` where ask/deny is expected fails.
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decidePermission } from "../../permissions/engine.ts";
import type { PermissionMode } from "../../permissions/types.ts";
import { initBashParser } from "../../shell/parse.ts";
import {
  type BashCase,
  EXTRA_CASES,
  loadBashCases,
  SHARED_CASES_FILE,
  type Verdict,
} from "../../shell/testing/bashExtraCases.ts";
import { createTestProject, type TestProject } from "../../shell/testing/project.ts";
import { createToolUseContext } from "../../tool/createContext.ts";
import { BashTool } from "./BashTool.ts";

const CASES_FILE = SHARED_CASES_FILE;
const sharedCases = loadBashCases(CASES_FILE);

let project: TestProject;
const falseAlarms: string[] = [];
const results: Array<{ id: string; expected: Verdict; got: Verdict }> = [];

/** Sets up what a needs_fs case describes: "<dir>/ is a symlink to $HOME" and the like. */
function prepareFilesystem(testCase: BashCase): void {
  const link = testCase.why?.match(/(\S+?)\/? is a symlink to (\$HOME|~|\/\S+)/);
  if (!link) return;
  const name = (link[1] as string).replace(/^\/project\//, "");
  const path = join(project.root, name);
  if (!existsSync(path)) symlinkSync(project.outside, path);
}

function setUpExtraFilesystem(): void {
  // linked/ holds a symlink that leads out of the project; globs over it must not be allowed.
  mkdirSync(join(project.root, "linked"), { recursive: true });
  writeFileSync(join(project.root, "linked", "ok.txt"), "ok\n");
  writeFileSync(join(project.outside, "secret"), "secret\n");
  symlinkSync(join(project.outside, "secret"), join(project.root, "linked", "key"));
  writeFileSync(join(project.root, "list.txt"), "src/app.ts\n");
}

async function decide(testCase: BashCase): Promise<Verdict> {
  const root = project.root;
  const cwdRoot = testCase.context.cwd_root ?? "/project";
  const command = testCase.command.split(cwdRoot).join(root);
  const context = createToolUseContext({
    tools: [BashTool],
    cwd: root,
    mode: (testCase.context.mode ?? "default") as PermissionMode,
    allow: testCase.context.allow_rules ?? [],
    deny: testCase.context.deny_rules ?? [],
    ruleSource: "project",
  });
  const decision = await decidePermission(BashTool, { command }, context);
  return decision.behavior;
}

function judge(testCase: BashCase, got: Verdict): string | undefined {
  results.push({ id: testCase.id, expected: testCase.expected, got });
  if (testCase.expected === "allow") {
    if (got !== "allow") falseAlarms.push(`${testCase.id}: ${got} for ${JSON.stringify(testCase.command)}`);
    return undefined;
  }
  if (got === "allow")
    return `SECURITY FAILURE ${testCase.id}: allowed ${JSON.stringify(testCase.command)} (expected ${testCase.expected})`;
  if (testCase.expected === "deny" && got !== "deny" && !testCase.also_acceptable?.includes(got))
    return `${testCase.id}: ${got} where deny is expected for ${JSON.stringify(testCase.command)}`;
  return undefined;
}

beforeAll(async () => {
  await initBashParser();
  project = createTestProject();
  setUpExtraFilesystem();
  for (const testCase of [...sharedCases, ...EXTRA_CASES]) if (testCase.needs_fs) prepareFilesystem(testCase);
});

afterAll(() => {
  const benign = results.filter((result) => result.expected === "allow").length;
  const failures = results.filter((result) => result.expected !== "allow" && result.got === "allow").length;
  const exact = results.filter((result) => result.expected === result.got).length;
  console.log(
    `bash cases: ${results.length} run (${sharedCases.length} shared, ${EXTRA_CASES.length} extra); ` +
      `security failures ${failures}; false alarms ${falseAlarms.length} of ${benign} benign controls; ` +
      `exactly the expected verdict ${exact} of ${results.length}`,
  );
  for (const alarm of falseAlarms) console.log(`  false alarm ${alarm}`);
  project.cleanup();
});

describe("shared bypass cases", () => {
  it.skipIf(sharedCases.length > 0)(`skipped: ${CASES_FILE} is not present`, () => {});
  it.each(sharedCases.map((testCase) => [testCase.id, testCase] as const))("%s", async (_id, testCase) => {
    expect(judge(testCase, await decide(testCase))).toBeUndefined();
  });
});

describe("extra adversarial cases", () => {
  it.each(EXTRA_CASES.map((testCase) => [testCase.id, testCase] as const))("%s", async (_id, testCase) => {
    expect(judge(testCase, await decide(testCase))).toBeUndefined();
  });
});
