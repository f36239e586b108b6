import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT_FOR_DECISION } from "../cli/commands/check.ts";
import { openSession } from "../cli/session.ts";
import { ENTRY, runScript } from "../cli/testing/keelProcess.ts";
import { callInSession, decide, isHardAsk } from "../permissions/decide.ts";
import { isPermissionMode } from "../permissions/modes.ts";
import type { PermissionDecision } from "../permissions/types.ts";
import { trustFolder } from "../settings/trust.ts";
import {
  type BashCase,
  EXTRA_CASES,
  loadBashCases,
  SHARED_CASES_FILE,
} from "../shell/analyze/testing/bashExtraCases.ts";
import { createTestProject, type TestProject } from "../shell/analyze/testing/project.ts";
import { type SandboxPolicySettings, updatePermissionContext } from "../tool/context.ts";
import { findToolByName } from "../tool/registry.ts";
import type { Tool } from "../tool/Tool.ts";
import { BashTool } from "../tools/bash/BashTool.ts";
import { handleHookEvent } from "./handle.ts";

const sharedCases = loadBashCases(SHARED_CASES_FILE);

let project: TestProject;
let home: string;
let env: NodeJS.ProcessEnv;
const savedEnv = {
  KEEL_HOME: process.env.KEEL_HOME,
  KEEL_MANAGED_SETTINGS: process.env.KEEL_MANAGED_SETTINGS,
};

type Answer = "allow" | "deny" | "ask" | "silent";

function commandOf(testCase: BashCase): string {
  return testCase.command.split(testCase.context.cwd_root ?? "/project").join(project.root);
}

function modeOf(testCase: BashCase): string {
  const mode = testCase.context.mode ?? "default";
  return isPermissionMode(mode) ? mode : "default";
}

/** The case's rules in the project's Claude Code settings (the folder is trusted, so allow rules apply). */
function writeRules(testCase: BashCase): void {
  writeFileSync(
    join(project.root, ".claude", "settings.json"),
    JSON.stringify({
      permissions: { allow: testCase.context.allow_rules ?? [], deny: testCase.context.deny_rules ?? [] },
    }),
  );
}

/** Sets up what a needs_fs case describes: "<dir>/ is a symlink to $HOME" and the like. */
function prepareFilesystem(testCase: BashCase): void {
  const link = testCase.why?.match(/(\S+?)\/? is a symlink to (\$HOME|~|\/\S+)/);
  if (!link) return;
  const path = join(project.root, (link[1] as string).replace(/^\/project\//, ""));
  if (!existsSync(path)) symlinkSync(project.outside, path);
}

function claudeCodeEvent(testCase: BashCase): string {
  return JSON.stringify({
    session_id: "bash-cases",
    transcript_path: join(home, "transcript.jsonl"),
    cwd: project.root,
    permission_mode: modeOf(testCase),
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: commandOf(testCase) },
    tool_use_id: `toolu_${testCase.id}`,
  });
}

/**
 * `keel check`'s decision, by its own path: the session it opens and decidePermission, where nothing
 * confines Bash calls (as for the hook, whose agent runs the command: check on a machine without bubblewrap).
 */
async function checkDecision(testCase: BashCase) {
  const session = await openSession({ cwd: project.root, mode: modeOf(testCase) }, { forTool: "Bash" });
  session.context.setAppState((state) => ({
    ...state,
    toolPermissionContext: updatePermissionContext(state.toolPermissionContext, {
      sandbox: { ...state.toolPermissionContext.sandbox, confinement: false } as SandboxPolicySettings,
    }),
  }));
  try {
    const bash = findToolByName(session.context.options.tools, "Bash");
    if (!bash) throw new Error("no Bash tool");
    const input = bash.inputSchema.parse({ command: commandOf(testCase) });
    return await decide(callInSession(bash, input, session.context, "person"));
  } finally {
    session.close();
  }
}

/** What the hook should answer for check's decision. */
function answerFor(decision: PermissionDecision): Answer {
  if (decision.behavior !== "ask") return decision.behavior;
  return isHardAsk(decision, BashTool as Tool) ? "ask" : "silent";
}

function answerOf(stdout: string): Answer {
  if (stdout.trim() === "") return "silent";
  return JSON.parse(stdout).hookSpecificOutput.permissionDecision;
}

beforeAll(() => {
  project = createTestProject();
  home = join(project.outside, "..", "home");
  mkdirSync(home, { recursive: true });
  // check's session reads KEEL_HOME from process.env; this file runs in its own worker process.
  process.env.KEEL_HOME = home;
  process.env.KEEL_MANAGED_SETTINGS = join(home, "no-managed-settings.json");
  env = {
    PATH: process.env.PATH,
    KEEL_DECISION_SERVER: "off",
    HOME: home,
    KEEL_HOME: home,
    KEEL_MANAGED_SETTINGS: process.env.KEEL_MANAGED_SETTINGS,
  };
  trustFolder(project.root, env);
  setUpExtraFilesystem();
  for (const testCase of [...sharedCases, ...EXTRA_CASES]) if (testCase.needs_fs) prepareFilesystem(testCase);
});

/** What the extra cases expect on disk: linked/ holds a symlink that leads out of the project. */
function setUpExtraFilesystem(): void {
  mkdirSync(join(project.root, "linked"), { recursive: true });
  writeFileSync(join(project.root, "linked", "ok.txt"), "ok\n");
  writeFileSync(join(project.outside, "secret"), "secret\n");
  symlinkSync(join(project.outside, "secret"), join(project.root, "linked", "key"));
  writeFileSync(join(project.root, "list.txt"), "src/app.ts\n");
}

afterAll(() => {
  project.cleanup();
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("bash cases through keel hook claude-code, beside keel check (in process)", () => {
  // The copy is kept in the repository (KEEL_BASH_CASES may name another file): missing cases fail.
  it("reads the shared cases", () => {
    expect(sharedCases.length, SHARED_CASES_FILE).toBeGreaterThan(0);
  });
  it.each([...sharedCases, ...EXTRA_CASES].map((testCase) => [testCase.id, testCase] as const))(
    "%s",
    async (_id, testCase) => {
      writeRules(testCase);
      const decision = await checkDecision(testCase);
      const reply = await handleHookEvent("claude-code", claudeCodeEvent(testCase), {
        env,
        auditDir: join(home, "audit"),
      });
      expect(answerOf(reply.stdout)).toBe(answerFor(decision));
      // Never an allow the case does not expect, whatever check said.
      if (testCase.expected !== "allow") expect(answerOf(reply.stdout)).not.toBe("allow");
    },
  );
});

const run = (args: string[], input: string, cwd: string, extraEnv: NodeJS.ProcessEnv = {}) =>
  runScript(ENTRY, args, { cwd, env: { ...env, ...extraEnv }, stdin: input });

describe("bash cases through the real keel hook and keel check processes", () => {
  // One of each verdict, each in its own project with the case's rules in its Claude Code settings, so
  // both processes of every case run at once.
  const picked = (["allow", "deny", "ask"] as const).flatMap((verdict) =>
    sharedCases
      .filter(
        (testCase) => testCase.expected === verdict && !testCase.needs_fs && modeOf(testCase) !== "dontAsk",
      )
      .slice(0, 1),
  );
  it.skipIf(picked.length === 0)("give the same verdicts", { timeout: 120_000 }, async () => {
    const projects = picked.map(() => createTestProject());
    try {
      const outcomes = await Promise.all(
        picked.map(async (testCase, index) => {
          const own = projects[index] as TestProject;
          trustFolder(own.root, env);
          writeFileSync(
            join(own.root, ".claude", "settings.json"),
            JSON.stringify({
              permissions: {
                allow: testCase.context.allow_rules ?? [],
                deny: testCase.context.deny_rules ?? [],
              },
            }),
          );
          const command = testCase.command.split(testCase.context.cwd_root ?? "/project").join(own.root);
          const event = JSON.parse(claudeCodeEvent(testCase));
          const [check, hook] = await Promise.all([
            run(
              ["check", "Bash", JSON.stringify({ command }), "--json", "--mode", modeOf(testCase)],
              "",
              own.root,
              // The agent runs the command, so the hook never counts on confinement: nor may check here.
              { PATH: "" },
            ),
            run(
              ["hook", "claude-code"],
              JSON.stringify({ ...event, cwd: own.root, tool_input: { command } }),
              own.root,
            ),
          ]);
          return { testCase, check, hook };
        }),
      );
      for (const { testCase, check, hook } of outcomes) {
        expect(hook.code, `${testCase.id}: ${hook.stderr}`).toBe(0);
        const report = JSON.parse(check.stdout) as PermissionDecision & { reason: string };
        const behavior = report.behavior;
        // keel check's exit code says the decision (0 allow, 1 ask, 3 deny).
        expect(check.code, `${testCase.id}: ${check.stderr}`).toBe(EXIT_FOR_DECISION[behavior]);
        expect({ id: testCase.id, answer: answerOf(hook.stdout) }).toEqual({
          id: testCase.id,
          answer: answerFor({ ...report, message: report.reason } as PermissionDecision),
        });
        expect(behavior).toBe(testCase.expected);
      }
    } finally {
      for (const own of projects) own.cleanup();
    }
  });
});
