import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addRuleToSettingsFile } from "./addRule.ts";
import { localSettingsPath } from "./locations.ts";
import { createTestWorld, type TestWorld } from "./testWorld.ts";
import { revokeFolderTrust, trustFolder, userConfigPath } from "./trust.ts";

let world: TestWorld;
beforeEach(() => {
  world = createTestWorld();
});
afterEach(() => world.cleanup());

describe("addRuleToSettingsFile", () => {
  it("creates the local settings file with the rule", () => {
    const path = localSettingsPath(world.project);
    expect(addRuleToSettingsFile(path, "allow", "Bash(npm test)")).toBe(true);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ permissions: { allow: ["Bash(npm test)"] } });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("keeps the file's other keys, does not repeat a rule, and leaves no temp file", () => {
    const path = world.write("project/.keel/settings.local.json", {
      model: "x",
      permissions: { allow: ["Read"], deny: ["Bash(rm:*)"], defaultMode: "plan" },
      hooks: { Stop: [] },
    });
    expect(addRuleToSettingsFile(path, "allow", "Bash(git status)")).toBe(true);
    expect(addRuleToSettingsFile(path, "allow", "Bash(git status)")).toBe(false);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({
      model: "x",
      permissions: { allow: ["Read", "Bash(git status)"], deny: ["Bash(rm:*)"], defaultMode: "plan" },
      hooks: { Stop: [] },
    });
    expect(readdirSync(dirname(path))).toEqual(["settings.local.json"]);
  });

  it("refuses a malformed rule and a file that is not a JSON object, leaving the file as it was", () => {
    const path = world.write("project/.keel/settings.local.json", "[1]");
    expect(() => addRuleToSettingsFile(path, "allow", "Bash(")).toThrow(/Invalid permission rule/);
    expect(() => addRuleToSettingsFile(path, "allow", "Read")).toThrow(/expected a JSON object/);
    expect(readFileSync(path, "utf8")).toBe("[1]");
  });
});

describe("trust store", () => {
  it("keeps other keys of the user config and can forget a folder", () => {
    world.write("home/.keel/config.json", { theme: "dark" });
    trustFolder(world.project, world.env);
    const config = JSON.parse(readFileSync(userConfigPath(world.env), "utf8"));
    expect(config.theme).toBe("dark");
    expect(Object.keys(config.trustedFolders)).toEqual([world.project]);
    expect(revokeFolderTrust(world.project, world.env)).toBe(true);
    expect(revokeFolderTrust(world.project, world.env)).toBe(false);
    expect(JSON.parse(readFileSync(join(world.home, ".keel", "config.json"), "utf8"))).toEqual({
      theme: "dark",
      trustedFolders: {},
    });
  });
});
