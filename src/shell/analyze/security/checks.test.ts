// Every security check's own table: inputs that must trigger it and inputs that must not. Then the
// analyzer as a whole must never allow a trigger example.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyzeBashCommand } from "../analyze.ts";
import { initBashParser } from "../grammar/parse.ts";
import { contextFor, createTestProject, runCheckAlone, type TestProject } from "../testing/project.ts";
import { ALL_CHECKS } from "./index.ts";

let project: TestProject;

beforeAll(async () => {
  await initBashParser();
  project = createTestProject();
});
afterAll(() => project.cleanup());

describe.each(ALL_CHECKS.map((check) => [check.id, check] as const))("%s", (_id, check) => {
  it.each(check.examples.trigger.map((command) => [command]))("triggers on %j", (command) => {
    expect(runCheckAlone(check, command)).toBeTypeOf("string");
  });
  it.each(check.examples.pass.map((command) => [command]))("stays quiet on %j", (command) => {
    expect(runCheckAlone(check, command)).toBeUndefined();
  });
  it("is never allowed by the analyzer on its trigger examples", async () => {
    for (const command of check.examples.trigger) {
      const verdict = await analyzeBashCommand(command, {
        cwd: project.root,
        permissionContext: contextFor(project.root),
      });
      expect(verdict.behavior, command).not.toBe("allow");
    }
  });
});

it("check ids are unique", () => {
  const ids = ALL_CHECKS.map((check) => check.id);
  expect(new Set(ids).size).toBe(ids.length);
});
