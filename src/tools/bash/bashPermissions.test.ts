// checkBashPermissions through the real decision engine: rules, modes, safety checks and suggestions.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { decidePermission } from "../../permissions/engine.ts";
import { isReadOnlyBashCommand } from "../../shell/analyze/analyze.ts";
import { initBashParser } from "../../shell/analyze/grammar/parse.ts";
import { bashRuleMatcher } from "../../shell/analyze/ruleMatcher.ts";
import { createTestProject, type TestProject } from "../../shell/analyze/testing/project.ts";
import { buildTool } from "../../tool/Tool.ts";
import { BashTool } from "./BashTool.ts";
import { checkBashPermissions } from "./bashPermissions.ts";
import { type RuleSetup, ruleContext } from "./testing/context.ts";

const bash = buildTool<{ command: string }>({
  name: "Bash",
  inputSchema: z.object({ command: z.string() }),
  maxResultSizeChars: 30_000,
  description: () => "test bash",
  prompt: () => "test bash",
  call: async () => ({ data: "" }),
  isReadOnly: (input) => isReadOnlyBashCommand(input.command),
  checkPermissions: checkBashPermissions,
  ruleMatcher: bashRuleMatcher,
});

let project: TestProject;

beforeAll(async () => {
  await initBashParser();
  project = createTestProject();
});
afterAll(() => project.cleanup());

interface Setup extends RuleSetup {
  cwd?: string;
}

function contextFor(setup: Setup) {
  const context = ruleContext(bash, project.root, setup);
  if (setup.cwd) context.setAppState((state) => ({ ...state, cwd: setup.cwd as string }));
  return context;
}

async function decide(command: string, setup: Setup = {}) {
  return decidePermission(bash, { command }, contextFor(setup));
}

describe("checkBashPermissions in the decision engine", () => {
  it("the Bash tool declares the Bash rule matcher, which checks specifiers", () => {
    expect(BashTool.ruleMatcher).toBe(bashRuleMatcher);
    expect(bashRuleMatcher.validate?.("git:*:*")).toBeTypeOf("string");
  });

  it("allows read-only commands inside the working directories without any rule", async () => {
    const decision = await decide("git log --oneline -n 5 | head -3");
    expect(decision.behavior).toBe("allow");
    expect(decision.decisionReason.type).toBe("tool");
  });

  it("denies a whole command when one of 60 parts is denied", async () => {
    const parts = Array.from({ length: 60 }, (_, i) => (i === 37 ? "curl -s https://example.com" : "true"));
    const decision = await decide(parts.join(" && "), { deny: ["Bash(curl:*)"], allow: ["Bash(true:*)"] });
    expect(decision.behavior).toBe("deny");
    expect(decision.decisionReason.type).toBe("rule");
  });

  it("applies allow rules to compounds only when every part is covered or read-only", async () => {
    const allow = ["Bash(npm test:*)", "Bash(npm run lint:*)"];
    expect((await decide("npm test && npm run lint | tail -5", { allow })).behavior).toBe("allow");
    expect((await decide("npm test && rm -rf dist", { allow })).behavior).toBe("ask");
    expect((await decide('npm test "$(id)"', { allow })).behavior).toBe("ask");
  });

  it("never lets an allow rule override an ask for code it cannot see", async () => {
    const decision = await decide("python3 -c 'import os'", { allow: ["Bash(python3:*)"] });
    expect(decision.behavior).toBe("ask");
    expect(decision.decisionReason).toMatchObject({ type: "tool", check: "interpreter-code" });
  });

  it("asks for protected paths and removals of / even in bypass mode", async () => {
    for (const command of ["echo x >> .claude/settings.json", "rm -rf /", "bash -c 'echo x > ~/.bashrc'"]) {
      const decision = await decide(command, { mode: "bypassPermissions" });
      expect(decision.behavior, command).toBe("ask");
      expect(decision.decisionReason.type, command).toBe("safetyCheck");
    }
  });

  it("lets bypass mode run what is merely not understood, but not what an ask rule names", async () => {
    expect((await decide("echo $(date)", { mode: "bypassPermissions" })).behavior).toBe("allow");
    expect(
      (await decide("git push origin main", { mode: "bypassPermissions", ask: ["Bash(git push:*)"] }))
        .behavior,
    ).toBe("ask");
  });

  it("offers a narrow rule with a prompt, never a blanket Bash", async () => {
    const decision = await decide("npm run test -- --watch");
    expect(decision.behavior).toBe("ask");
    expect(decision.behavior === "ask" && decision.suggestions).toEqual([
      { behavior: "allow", rule: "Bash(npm run test:*)", destination: "local" },
    ]);
  });

  it("follows modes: acceptEdits, plan and dontAsk", async () => {
    expect((await decide("mkdir -p out && touch out/a", { mode: "acceptEdits" })).behavior).toBe("allow");
    expect((await decide("mkdir -p out", { mode: "default" })).behavior).toBe("ask");
    expect((await decide("ls src", { mode: "plan" })).behavior).toBe("allow");
    expect((await decide("rm -rf dist", { mode: "plan" })).behavior).toBe("deny");
    expect((await decide("npm install", { mode: "dontAsk" })).behavior).toBe("deny");
  });

  it("judges relative paths from the shell's current directory", async () => {
    expect((await decide("cat ../README.md", { cwd: join(project.root, "src") })).behavior).toBe("allow");
    expect((await decide("cat ../README.md")).behavior).toBe("ask");
  });
});
