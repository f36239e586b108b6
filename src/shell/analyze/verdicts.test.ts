// Every Bash verdict the project knows, in one file: the shared and extra cases in their own context
// and in acceptEdits and bypass mode (also where no sandbox can confine them), each check's trigger and pass examples, and long generated
// scripts. A change that moves any verdict shows up as a diff of verdicts.snapshot.jsonl, to be
// read and committed on purpose (`npx vitest run src/shell/verdicts.test.ts -u`).
import { homedir, tmpdir } from "node:os";
import { dirname } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { decidePermission } from "../../permissions/engine.ts";
import { describeDecider, type PermissionMode } from "../../permissions/types.ts";
import { BashTool } from "../../tools/bash/BashTool.ts";
import { explainBashCommand, isReadOnlyBashCommand } from "./analyze.ts";
import { initBashParser } from "./grammar/parse.ts";
import { ALL_CHECKS } from "./security/index.ts";
import { type BashCase, EXTRA_CASES } from "./testing/bashExtraCases.ts";
import { caseCommand, caseContext, createCasesProject, SHARED_CASES } from "./testing/casesProject.ts";
import { generatedScripts } from "./testing/generatedScripts.ts";
import type { TestProject } from "./testing/project.ts";

let project: TestProject;

beforeAll(async () => {
  await initBashParser();
  project = createCasesProject();
});
afterAll(() => project.cleanup());

function plainCase(id: string, command: string): BashCase {
  return { id, command, context: {}, expected: "ask" };
}

function corpus(): BashCase[] {
  const checks = ALL_CHECKS.flatMap((check) => [
    ...check.examples.trigger.map((command, i) => plainCase(`${check.id}/trigger/${i}`, command)),
    ...check.examples.pass.map((command, i) => plainCase(`${check.id}/pass/${i}`, command)),
  ]);
  const scripts = generatedScripts().map((command, i) => plainCase(`generated/${i}`, command));
  return [...SHARED_CASES, ...EXTRA_CASES, ...checks, ...scripts];
}

function normalize(text: string): string {
  return text
    .split(project.root)
    .join("/project")
    .split(project.outside)
    .join("/outside")
    .split(dirname(project.root))
    .join("/base")
    .split(tmpdir())
    .join("/tmp")
    .split(homedir())
    .join("~");
}

/** A case's verdict in a mode, where Bash calls can run confined or (`confinement` false) where nothing confines them. */
async function verdictLine(testCase: BashCase, mode: PermissionMode, confinement = true): Promise<string> {
  const command = caseCommand(testCase, project);
  const context = caseContext(testCase, project, [BashTool], mode, confinement);
  const { cwd, toolPermissionContext } = context.getAppState();
  const decision = await decidePermission(BashTool, { command }, context);
  const explained = await explainBashCommand(command, { cwd, permissionContext: toolPermissionContext });
  return normalize(
    JSON.stringify({
      id: testCase.id,
      mode: confinement ? mode : `${mode} (no sandbox)`,
      decision: decision.behavior,
      decidedBy: describeDecider(decision.decisionReason),
      analyzer: explained.verdict.behavior,
      check: explained.check ?? null,
      reason: explained.verdict.reason,
      readOnly: isReadOnlyBashCommand(command),
    }),
  );
}

it("every known command keeps its verdict", async () => {
  const lines: string[] = [];
  for (const testCase of corpus()) {
    const own = (testCase.context.mode ?? "default") as PermissionMode;
    const modes = [...new Set<PermissionMode>([own, "acceptEdits", "bypassPermissions"])];
    for (const mode of modes) lines.push(await verdictLine(testCase, mode));
    // Where nothing confines Bash calls, what the analysis cannot name asks in the modes that approve.
    for (const mode of ["acceptEdits", "bypassPermissions"] as const)
      lines.push(await verdictLine(testCase, mode, false));
  }
  await expect(`${lines.join("\n")}\n`).toMatchFileSnapshot("./testing/verdicts.snapshot.jsonl");
});
