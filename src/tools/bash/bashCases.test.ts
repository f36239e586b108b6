// Every public bypass case of shared/security/bash-cases.jsonl, plus our own adversarial cases, through
// the real decision path: decidePermission with the real Bash tool, the case's rules (source
// "project") and mode, in a real temporary project. Any `allow` where ask/deny is expected fails.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decidePermission } from "../../permissions/engine.ts";
import { initBashParser } from "../../shell/analyze/grammar/parse.ts";
import {
  type BashCase,
  EXTRA_CASES,
  SHARED_CASES_FILE,
  type Verdict,
} from "../../shell/analyze/testing/bashExtraCases.ts";
import {
  caseCommand,
  caseContext,
  createCasesProject,
  SHARED_CASES,
} from "../../shell/analyze/testing/casesProject.ts";
import type { TestProject } from "../../shell/analyze/testing/project.ts";
import { BashTool } from "./BashTool.ts";

const CASES_FILE = SHARED_CASES_FILE;
const sharedCases = SHARED_CASES;

let project: TestProject;
const falseAlarms: string[] = [];
const results: Array<{ id: string; expected: Verdict; got: Verdict }> = [];

async function decide(testCase: BashCase): Promise<Verdict> {
  const context = caseContext(testCase, project, [BashTool]);
  const decision = await decidePermission(BashTool, { command: caseCommand(testCase, project) }, context);
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
  project = createCasesProject();
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
