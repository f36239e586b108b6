// Keel's entries in an agent's hook settings: added once, replaced when the flags change, removed
// exactly, and every other hook left as it was.
import { describe, expect, it } from "vitest";
import {
  addKeelHooks,
  findKeelHooks,
  isKeelHookCommand,
  type KeelHookSpec,
  removeKeelHooks,
} from "./hookEntries.ts";

const COMMAND = "/usr/bin/node /opt/keel/bin/keel.js hook claude-code";
const spec = (command = COMMAND): KeelHookSpec => ({
  agent: "claude-code",
  events: ["PreToolUse", "PermissionRequest"],
  matcher: "^(Bash|Read)$",
  hook: { type: "command", command, timeout: 30 },
});
const OTHER = { matcher: "Bash", hooks: [{ type: "command", command: "./lint-commands.sh" }] };

describe("isKeelHookCommand", () => {
  it.each([
    [COMMAND, "claude-code", true],
    ["keel hook claude-code", "claude-code", true],
    ["keel hook claude-code --strict", "claude-code", true],
    ["npx keel hook claude-code", "claude-code", true],
    ["'/path with space/node' '/x/keel.js' hook claude-code", "claude-code", true],
    ["if command -v keel >/dev/null; then exec keel hook claude-code; else exit 1; fi", "claude-code", true],
    ["exec keel hook claude-code --strict&& true", "claude-code", true],
    ["keel hook claude-code-x", "claude-code", false],
    ["keel hook gemini-cli", "claude-code", false],
    ["keel hook claude-codex", "claude-code", false],
    ["keeling hook claude-code", "claude-code", false],
    ["./lint-commands.sh", "claude-code", false],
    ["echo keel hook", "claude-code", false],
  ] as const)("%s is Keel's hook for %s: %s", (command, agent, expected) => {
    expect(isKeelHookCommand(command, agent)).toBe(expected);
  });
});

describe("addKeelHooks", () => {
  it("adds a group per event and keeps everything else", () => {
    const settings = { permissions: { allow: ["Read"] }, hooks: { PreToolUse: [OTHER], Stop: [OTHER] } };
    const { settings: next, changes } = addKeelHooks(settings, spec());
    expect(changes.map((change) => `${change.kind} ${change.event}`)).toEqual([
      "added PreToolUse",
      "added PermissionRequest",
    ]);
    expect(next).toEqual({
      permissions: { allow: ["Read"] },
      hooks: {
        PreToolUse: [OTHER, { matcher: "^(Bash|Read)$", hooks: [spec().hook] }],
        Stop: [OTHER],
        PermissionRequest: [{ matcher: "^(Bash|Read)$", hooks: [spec().hook] }],
      },
    });
  });

  it("changes nothing when it is already there", () => {
    const once = addKeelHooks({}, spec()).settings;
    const twice = addKeelHooks(once, spec());
    expect(twice.changes).toEqual([]);
    expect(twice.settings).toBe(once);
  });

  it("replaces its own entry when the command changes (--strict), in place of the old one", () => {
    const once = addKeelHooks({ hooks: { PreToolUse: [OTHER] } }, spec()).settings;
    const { settings, changes } = addKeelHooks(once, spec(`${COMMAND} --strict`));
    expect(changes.map((change) => change.kind)).toEqual(["updated", "updated"]);
    expect(findKeelHooks(settings, "claude-code").map((entry) => entry.command)).toEqual([
      `${COMMAND} --strict`,
      `${COMMAND} --strict`,
    ]);
    expect((settings.hooks as Record<string, unknown[]>).PreToolUse?.[0]).toEqual(OTHER);
  });

  it("takes its hook out of a group it shares with another hook, keeping the other", () => {
    const shared = {
      matcher: "*",
      hooks: [{ type: "command", command: "keel hook claude-code" }, OTHER.hooks[0]],
    };
    const { settings } = addKeelHooks({ hooks: { PreToolUse: [shared] } }, spec());
    const groups = (settings.hooks as Record<string, unknown[]>).PreToolUse;
    expect(groups).toEqual([
      { matcher: "*", hooks: [OTHER.hooks[0]] },
      { matcher: "^(Bash|Read)$", hooks: [spec().hook] },
    ]);
  });

  it("leaves another agent's Keel hook alone", () => {
    const gemini = { matcher: "*", hooks: [{ type: "command", command: "keel hook gemini-cli" }] };
    const { settings } = addKeelHooks({ hooks: { PreToolUse: [gemini] } }, spec());
    expect((settings.hooks as Record<string, unknown[]>).PreToolUse?.[0]).toEqual(gemini);
  });
});

describe("removeKeelHooks", () => {
  it("removes exactly Keel's entries, and events it leaves empty", () => {
    const installed = addKeelHooks({ hooks: { PreToolUse: [OTHER] }, model: "x" }, spec()).settings;
    const { settings, changes } = removeKeelHooks(installed, "claude-code");
    expect(changes.map((change) => `${change.kind} ${change.event}`)).toEqual([
      "removed PreToolUse",
      "removed PermissionRequest",
    ]);
    expect(settings).toEqual({ hooks: { PreToolUse: [OTHER] }, model: "x" });
  });

  it("drops the hooks object when nothing else was in it", () => {
    const installed = addKeelHooks({ model: "x" }, spec()).settings;
    expect(removeKeelHooks(installed, "claude-code").settings).toEqual({ model: "x" });
  });

  it("changes nothing when Keel is not there", () => {
    const settings = { hooks: { PreToolUse: [OTHER], Empty: [] } };
    const result = removeKeelHooks(settings, "claude-code");
    expect(result.changes).toEqual([]);
    expect(result.settings).toBe(settings);
  });
});
