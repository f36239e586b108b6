// Settings typos a person makes: a misspelt key, a rule naming no tool, a malformed specifier. Each is a
// warning with file:line:col and the likely intended name; the file still loads (one file serves Keel
// and Claude Code, so keys Claude Code reads are never flagged).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { closestName, editDistance } from "../tool/didYouMean.ts";
import { builtinTools } from "../tools/builtinTools.ts";
import { loadSettings } from "./load.ts";
import { createTestWorld, type TestWorld } from "./testWorld.ts";

let world: TestWorld;
beforeEach(() => {
  world = createTestWorld();
});
afterEach(() => world.cleanup());

const load = () => loadSettings({ cwd: world.project, env: world.env, tools: builtinTools() });

describe("settings typos", () => {
  it("an unknown key: file:line:col of the key, and the nearest known key", () => {
    const file = world.write(
      "home/.keel/settings.json",
      '{\n  "permisions": {"allow": ["Read"]},\n  "sandbox": {"enabeld": true}\n}\n',
    );
    const warnings = load().warnings;
    expect(warnings).toContain(
      `${file}:2:3: unknown setting "permisions" (ignored); did you mean "permissions"?`,
    );
    expect(warnings).toContain(
      `${file}:3:15: unknown setting "sandbox.enabeld" (ignored); did you mean "sandbox.enabled"?`,
    );
  });

  it("keys Claude Code reads, and Keel's own, are not flagged", () => {
    world.write("home/.claude/settings.json", {
      $schema: "https://json.schemastore.org/claude-code-settings.json",
      model: "opus",
      statusLine: { type: "command", command: "x" },
      includeCoAuthoredBy: false,
      permissions: { allow: ["Read"], defaultMode: "default", disableBypassPermissionsMode: "disable" },
      sandbox: { enabled: false, network: { allowUnixSockets: [] }, filesystem: { denyRead: [] } },
      lspServers: {},
      worktree: { directory: "trees" },
    });
    expect(load().warnings).toEqual([]);
  });

  it("a key near nothing known is still reported, without a guess", () => {
    const file = world.write("home/.keel/settings.json", '{"zzzqqq": 1}');
    expect(load().warnings).toEqual([`${file}:1:2: unknown setting "zzzqqq" (ignored)`]);
  });

  it.each([
    ["read(./secret)", 'no tool is named "read", so the rule matches nothing; did you mean "Read"?'],
    ["Raed", 'no tool is named "Raed", so the rule matches nothing; did you mean "Read"?'],
    ["Bsah(ls:*)", 'no tool is named "Bsah", so the rule matches nothing; did you mean "Bash"?'],
    ["Frobnicate", 'no tool is named "Frobnicate", so the rule matches nothing'],
  ])("a rule naming no tool: %s", (rule, message) => {
    const file = world.write(
      "home/.keel/settings.json",
      `{"permissions": {"deny": [${JSON.stringify(rule)}]}}`,
    );
    const loaded = load();
    expect(loaded.warnings).toEqual([`${file}:1:27: rule "${rule}": ${message}`]);
    // Still loaded as written: a deny rule is never dropped.
    expect(loaded.permissionContext.alwaysDenyRules).toEqual({ user: [rule] });
  });

  it.each(["mcp__github", "mcp__github__create_issue", "*", "mcp__*", "Web*", "Edit", "Task", "LS"])(
    "%s is not an unknown tool",
    (rule) => {
      world.write("home/.keel/settings.json", { permissions: { allow: [rule] } });
      expect(load().warnings).toEqual([]);
    },
  );

  it("a hook event typo: file:line:col of the event, and the event it resembles", () => {
    const file = world.write(
      "home/.keel/settings.json",
      '{\n  "hooks": {\n    "PreTooluse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}],\n    "Zzzz": []\n  }\n}\n',
    );
    const loaded = load();
    expect(loaded.warnings).toEqual([
      `${file}:3:5: unknown hook event "PreTooluse" (ignored); did you mean "PreToolUse"?`,
      expect.stringMatching(
        new RegExp(`^${file}:4:5: unknown hook event "Zzzz" \\(ignored\\); Keel knows PreToolUse, `),
      ),
    ]);
    expect(loaded.hooks).toEqual([]);
  });

  it("typos in an untrusted project's files are reported too (before anyone trusts it)", () => {
    const file = world.write(
      "project/.keel/settings.json",
      '{"hooks": {"PostToolUs": []}, "permissions": {"allow": ["Raed"]}}',
    );
    const warnings = load().warnings;
    expect(warnings).toContain(
      `${file}:1:12: unknown hook event "PostToolUs" (ignored); did you mean "PostToolUse"?`,
    );
    expect(warnings).toContain(
      `${file}:1:57: rule "Raed": no tool is named "Raed", so the rule matches nothing; did you mean "Read"?`,
    );
  });

  it("a --settings file gets the same warnings", () => {
    const file = world.write("extra.json", '{"permisions": {}}');
    const loaded = loadSettings({
      cwd: world.project,
      env: world.env,
      tools: builtinTools(),
      cli: { settingsFile: file },
    });
    expect(loaded.warnings).toContain(
      `${file}:1:2: unknown setting "permisions" (ignored); did you mean "permissions"?`,
    );
  });

  it("without the tool list (library use), rule names are not judged", () => {
    world.write("home/.keel/settings.json", { permissions: { allow: ["Raed"] } });
    expect(loadSettings({ cwd: world.project, env: world.env }).warnings).toEqual([]);
  });

  it("command-line rules get the same warnings, under the flag typed", () => {
    const loaded = loadSettings({
      cwd: world.project,
      env: world.env,
      tools: builtinTools(),
      cli: { rules: [{ behavior: "allow", rule: "Raed", flag: "--allowedTools" }] },
    });
    expect(loaded.warnings).toEqual([
      '--allowedTools "Raed": no tool is named "Raed", so the rule matches nothing; did you mean "Read"?',
    ]);
  });
});

describe("did you mean", () => {
  it.each([
    ["permisions", "permissions", 1],
    ["Raed", "Read", 1],
    ["read", "Read", 1],
    ["kitten", "sitting", 3],
  ])("editDistance(%s, %s) = %i", (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
  });

  it.each([
    ["read", ["Read", "Bash"], "Read"],
    ["Bsh", ["Read", "Bash"], "Bash"],
    ["xyz", ["Read", "Bash"], undefined],
    ["Read", ["Read"], undefined],
  ])("closestName(%s)", (typed, candidates, expected) => {
    expect(closestName(typed, candidates)).toBe(expected);
  });
});
