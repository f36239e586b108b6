// The "writes it cannot name" finding: its table (must and must-not), where nothing confines Bash calls
// and where the confinement does; and what the decision makes of it in each mode and under allow rules.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decidePermission } from "../../permissions/engine.ts";
import type { PermissionMode } from "../../permissions/types.ts";
import { createToolUseContext } from "../../tool/createContext.ts";
import { BashTool } from "../../tools/bash/BashTool.ts";
import { analyzeBashCommandNow } from "./analyze.ts";
import { initBashParser } from "./grammar/parse.ts";
import { contextFor, createTestProject, type TestProject } from "./testing/project.ts";
import { UNNAMED_WRITES } from "./unnamedWrites.ts";

/** Commands whose writes the analysis cannot name (the commands are only judged, never run). */
const MUST = [
  `python3 -c "open('x', 'w')"`,
  `node -e "require('fs').writeFileSync('x', '')"`,
  "perl -e 'print 1'",
  `sh -c "echo hi > x"`,
  `bash -c "touch x"`,
  `curl -s -w '%output{x}' http://127.0.0.1:1/`,
  "curl -K cfg http://127.0.0.1:1/",
  "make",
  "npm install",
  "./build.sh",
  "mytool --out result.txt",
  "echo $(date) > stamp.txt",
  "env python3 -c 1",
  "timeout 5 python3 -c 1",
];

/**
 * Writes the analysis itself asks about in every mode, confinement or not (names from stdin, a
 * launcher's archive applet): the unnamed-writes finding never needs to speak for them.
 */
const ASKED_ANYWAY = ["ls | xargs -I@ touch @", "busybox tar xf x.tar"];

/** Commands that write only what they name (or nothing). */
const MUST_NOT = [
  "echo hi",
  "ls -la",
  "cat README.md",
  "cp README.md copy.md",
  "mkdir -p build",
  "echo x > out.txt",
  "sed -i s/a/b/ README.md",
  "rm -rf build",
  "touch notes.txt",
  "git status",
  "git log --oneline -n 5",
  "cat README.md > /tmp/keel-unnamed-writes-copy",
];

let project: TestProject;
beforeAll(async () => {
  await initBashParser();
  project = createTestProject();
});
afterAll(() => project.cleanup());

function checkOf(command: string, confinement: boolean, mode: PermissionMode = "bypassPermissions") {
  const verdict = analyzeBashCommandNow(command, {
    cwd: project.root,
    permissionContext: contextFor(project.root, { mode, confinement }),
  });
  return verdict.check;
}

describe("the unnamed-writes finding where nothing confines Bash calls", () => {
  it.each(MUST)("fires on %s", (command) => {
    expect(checkOf(command, false)).toBe(UNNAMED_WRITES);
  });
  it.each(MUST_NOT)("does not fire on %s", (command) => {
    expect(checkOf(command, false)).not.toBe(UNNAMED_WRITES);
  });
  it.each(MUST)("never fires where the confinement runs: %s", (command) => {
    expect(checkOf(command, true)).not.toBe(UNNAMED_WRITES);
  });
  it.each(ASKED_ANYWAY)("%s asks in every mode with or without confinement, as a safety check", (command) => {
    for (const confinement of [false, true]) {
      const verdict = analyzeBashCommandNow(command, {
        cwd: project.root,
        permissionContext: contextFor(project.root, { mode: "bypassPermissions", confinement }),
      });
      expect({ behavior: verdict.behavior, safety: verdict.safety }).toEqual({
        behavior: "ask",
        safety: true,
      });
    }
  });
});

function session(mode: PermissionMode, confinement: boolean, allow: string[] = []) {
  return createToolUseContext({ tools: [BashTool], cwd: project.root, mode, confinement, allow });
}

const decide = (command: string, context: ReturnType<typeof session>) =>
  decidePermission(BashTool, { command }, context);

describe("the decision", () => {
  it.each(MUST)(
    "asks in bypass and acceptEdits mode without a sandbox, and bypass allows it with one: %s",
    async (command) => {
      for (const mode of ["bypassPermissions", "acceptEdits"] as const) {
        const decision = await decide(command, session(mode, false));
        expect(decision.behavior, mode).toBe("ask");
        expect(decision.decisionReason, mode).toMatchObject({ type: "safetyCheck", check: UNNAMED_WRITES });
      }
      expect((await decide(command, session("bypassPermissions", true))).decisionReason).toEqual({
        type: "mode",
        mode: "bypassPermissions",
      });
    },
  );

  it.each(MUST_NOT)("is what it was in bypass mode without a sandbox: %s", async (command) => {
    expect((await decide(command, session("bypassPermissions", false))).behavior).toBe("allow");
  });

  it("is approved by an allow rule naming the command, not by a blanket Bash rule", async () => {
    const named = await decide("npm test", session("bypassPermissions", false, ["Bash(npm test:*)"]));
    expect(named.decisionReason).toMatchObject({ type: "rule", rule: { behavior: "allow" } });
    const other = await decide("npm install", session("bypassPermissions", false, ["Bash(npm test:*)"]));
    expect(other.behavior).toBe("ask");
    const blanket = await decide("npm test", session("bypassPermissions", false, ["Bash"]));
    expect(blanket.decisionReason).toMatchObject({ type: "safetyCheck", check: UNNAMED_WRITES });
  });

  it("is not approved by an allow rule where the analysis asks on its own (inline code beats the rule)", async () => {
    const decision = await decide(
      `python3 -c "open('x', 'w')"`,
      session("default", false, ["Bash(python3:*)"]),
    );
    expect(decision.behavior).toBe("ask");
  });

  it("offers the rule a person could add, in default mode", async () => {
    const decision = await decide("npm run build", session("default", false));
    expect(decision.behavior).toBe("ask");
    expect(
      decision.behavior === "ask" && decision.suggestions?.map((suggestion) => suggestion.rule),
    ).toContain("Bash(npm run build:*)");
  });
});
