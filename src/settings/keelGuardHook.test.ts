// Keel's own guard entries in an agent's hook settings: recognised in every form `keel hook install`
// writes or a person types, and never confused with other hooks that merely mention keel.
import { describe, expect, it } from "vitest";
import type { ConfiguredHook } from "../hooks/config.ts";
import { isKeelGuardHook } from "./keelGuardHook.ts";

function commandHook(command: string): ConfiguredHook {
  return { event: "PreToolUse", matcher: "", handler: { type: "command", command }, source: "user" };
}

describe("isKeelGuardHook", () => {
  it.each([
    "'/usr/bin/node' '/home/u/keel/bin/keel.js' hook claude-code",
    "keel hook claude-code",
    "keel hook claude-code --strict",
    "npx --no-install keel hook gemini-cli",
    '"/opt/keel/bin/keel.js" hook codex',
  ])("Keel's entry: %s", (command) => expect(isKeelGuardHook(commandHook(command))).toBe(true));

  it.each([
    "./guard.sh",
    "keel hooks",
    "keel hook install claude-code",
    "echo keel hook claude-codex",
    "python3 check_keel.py hook",
  ])("not Keel's entry: %s", (command) => expect(isKeelGuardHook(commandHook(command))).toBe(false));
});
