// The matcher `keel hook install` writes for Claude Code names the tools Keel judges (their metas say so)
// and every MCP tool, and no other: Claude Code then starts Keel only for calls it has an opinion on.
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sharedHookCommand } from "./hookCommand.ts";
import { installHook, placeOf } from "./install.ts";
import { JUDGED_TOOLS } from "./keelTools.ts";
import { createHookWorld, type HookWorld } from "./testing/world.ts";

let world: HookWorld;
beforeEach(() => {
  world = createHookWorld({});
});
afterEach(() => world.cleanup());

/** The matcher written into the project's .claude/settings.json for each event. */
function installedMatchers(): string[] {
  const place = placeOf("claude-code", "project", world.project, world.env);
  installHook(place, sharedHookCommand("claude-code", false));
  const settings = JSON.parse(readFileSync(place.path, "utf8")) as {
    hooks: Record<string, Array<{ matcher?: string }>>;
  };
  return Object.values(settings.hooks).map((groups) => groups[0]?.matcher ?? "");
}

describe("Claude Code's hook matcher", () => {
  it("is the same for both events, and names every judged tool", () => {
    const matchers = installedMatchers();
    expect(matchers).toHaveLength(2);
    expect(new Set(matchers).size).toBe(1);
    for (const name of JUDGED_TOOLS) expect(new RegExp(matchers[0]!).test(name), name).toBe(true);
  });

  it.each([
    ["Bash", true],
    ["Read", true],
    ["Write", true],
    ["Edit", true],
    ["MultiEdit", true],
    ["NotebookEdit", true],
    ["Glob", true],
    ["Grep", true],
    ["LS", true],
    ["WebFetch", true],
    ["WebSearch", true],
    ["mcp__github__create_issue", true],
    ["TodoWrite", false],
    ["Task", false],
    ["Agent", false],
    ["LSP", false],
    ["ReadX", false],
    ["XRead", false],
    ["Bash|Read", false],
  ])("%s: %s", (name, matched) => {
    expect(new RegExp(installedMatchers()[0]!).test(name)).toBe(matched);
  });
});
