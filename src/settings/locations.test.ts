// Where managed (policy) settings are read: Keel's file, then Claude Code's for the platform with its
// managed-settings.d drop-ins; KEEL_MANAGED_SETTINGS names one file (and its drop-ins) instead.
import { describe, expect, it } from "vitest";
import { claudeCodeManagedFile, managedSettingsPaths } from "./locations.ts";

describe("managed settings locations", () => {
  it.each([
    ["linux", "/etc/claude-code/managed-settings.json"],
    ["darwin", "/Library/Application Support/ClaudeCode/managed-settings.json"],
    ["win32", "C:\\Program Files\\ClaudeCode\\managed-settings.json"],
  ] as const)("Claude Code's managed settings file on %s", (platform, file) => {
    expect(claudeCodeManagedFile(platform)).toBe(file);
  });

  it("reads Keel's managed file first, then Claude Code's (no drop-ins here)", () => {
    const paths = managedSettingsPaths({}, "linux");
    expect(paths[0]).toBe("/etc/keel/managed-settings.json");
    expect(paths.at(-1)).toBe("/etc/claude-code/managed-settings.json");
  });

  it("KEEL_MANAGED_SETTINGS replaces both", () => {
    expect(managedSettingsPaths({ KEEL_MANAGED_SETTINGS: "/nowhere/managed.json" }, "darwin")).toEqual([
      "/nowhere/managed.json",
    ]);
  });
});
