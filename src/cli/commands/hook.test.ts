// `keel hook` as real child processes: the event on stdin and the answer on stdout, exit codes that
// never read as "block" (2), install / status / uninstall on real settings files, and audit --summary.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createHookWorld,
  type HookWorld,
  recordedClaudeCodeEvents,
  recordedEvent,
} from "../../guard/testing/world.ts";
import { ENTRY, runScript } from "../testing/keelProcess.ts";

let world: HookWorld;
beforeEach(() => {
  world = createHookWorld({ claudeUser: { permissions: { deny: ["Bash(rm:*)"] } } });
});
afterEach(() => world.cleanup());

const keel = (args: string[], input = "") =>
  runScript(ENTRY, args, { cwd: world.project, env: world.env, stdin: input });

function bashEvent(command: string): string {
  const event = recordedEvent(recordedClaudeCodeEvents(world), "PreToolUse", "Bash");
  return JSON.stringify({ ...event, tool_input: { command } });
}

describe("keel hook <agent> as a process", () => {
  it("answers `hook <agent>` alone (no command-line parser) as it answers it parsed", {
    timeout: 120_000,
  }, async () => {
    // `--` ends the options: the same command, read by commander.
    const events = [bashEvent("git status && git diff"), bashEvent("timeout 5 rm -rf build"), "not json"];
    for (const event of events) {
      const [plain, parsed] = await Promise.all([
        keel(["hook", "claude-code"], event),
        keel(["hook", "claude-code", "--"], event),
      ]);
      expect(plain).toMatchObject({ code: parsed.code, stdout: parsed.stdout });
      expect(plain.stderr).toBe(parsed.stderr);
    }
  });

  it("answers events, and refuses with exit 2 (block) what it cannot read", {
    timeout: 120_000,
  }, async () => {
    const [allow, deny, silent, notJson, strayFlag, unknownAgent, huge, gemini] = await Promise.all([
      keel(["hook", "claude-code"], bashEvent("git status && git diff")),
      keel(["hook", "claude-code"], bashEvent("timeout 5 rm -rf build")),
      keel(["hook", "claude-code"], bashEvent("touch notes.txt")),
      keel(["hook", "claude-code"], "not json at all"),
      keel(["hook", "claude-code", "--stric", "extra"], bashEvent("ls")),
      keel(["hook", "claude-kode"], bashEvent("ls")),
      keel(["hook", "claude-code"], `{"tool_input": {"content": "${"x".repeat(17 * 1024 * 1024)}"}}`),
      keel(["hook", "gemini-cli"], "{ broken"),
    ]);
    expect(allow).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(allow.stdout).hookSpecificOutput).toMatchObject({
      hookEventName: "PreToolUse",
      permissionDecision: "allow",
    });
    expect(deny.code).toBe(0);
    expect(JSON.parse(deny.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(
      /Keel refused this call/,
    );
    expect(silent).toMatchObject({ code: 0, stdout: "", stderr: "" });
    // Exit code 2 is every agent's "block this call", with stderr as the reason.
    expect(notJson).toMatchObject({ code: 2, stdout: "" });
    expect(notJson.stderr).toMatch(
      /^keel hook claude-code: Keel cannot read this hook event \(the event on stdin is not JSON .*\), so it refuses the call\n$/,
    );
    expect(strayFlag.code).toBe(0);
    expect(JSON.parse(strayFlag.stdout).hookSpecificOutput.permissionDecision).toBe("allow");
    expect(strayFlag.stderr).toMatch(/ignored arguments --stric extra/);
    expect(unknownAgent.code).toBe(2);
    expect(unknownAgent.stderr).toMatch(/unknown agent "claude-kode"/);
    expect(huge).toMatchObject({ code: 2, stdout: "" });
    expect(huge.stderr).toMatch(/larger than/);
    expect(gemini).toMatchObject({ code: 2, stdout: "" });
    // Decided calls are in the audit log, and the summary counts them.
    const summary = await keel(["audit", "--summary"]);
    expect(summary.code).toBe(0);
    expect(summary.stdout).toMatch(/claude-code \(through keel hook\)/);
    expect(summary.stdout).toMatch(/Bash\s+4\s+2\s+1\s+1\s+0/);
  });
});

const hasTmux = spawnSync("tmux", ["-V"]).status === 0;

describe.skipIf(!hasTmux)("keel hook <agent> run by a person on a terminal", () => {
  it("says what it is for and exits 1 at once instead of waiting for an event", {
    timeout: 60_000,
  }, async () => {
    const socket = `keel-hook-test-${process.pid}`;
    const tmux = (...args: string[]) => execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
    const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
    const envs = Object.entries(world.env)
      .map(([name, value]) => `${name}=${quote(value ?? "")}`)
      .join(" ");
    const line = `env ${envs} ${quote(process.execPath)} ${quote(ENTRY)} hook claude-code; echo "EXIT=$?"; sleep 30`;
    tmux("new-session", "-d", "-s", "hook", "-x", "200", "-y", "20", line);
    try {
      let screen = "";
      for (let waited = 0; waited < 30_000 && !screen.includes("EXIT="); waited += 200) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        screen = tmux("capture-pane", "-p", "-t", "hook");
      }
      expect(screen).toMatch(/answers one hook event given on stdin by the agent/);
      expect(screen).toMatch(/EXIT=1/);
    } finally {
      tmux("kill-server");
    }
  });
});

describe("keel hook install / status / uninstall", () => {
  const userSettings = () => join(world.home, ".claude", "settings.json");

  it("installs into the user settings, keeps other hooks, is idempotent, and uninstalls exactly", {
    timeout: 120_000,
  }, async () => {
    const other = { matcher: "Bash", hooks: [{ type: "command", command: "./audit-bash.sh" }] };
    writeFileSync(
      userSettings(),
      JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] }, hooks: { PreToolUse: [other] } }),
    );
    const before = readFileSync(userSettings(), "utf8");

    const install = await keel(["hook", "install", "claude-code"]);
    expect(install.code).toBe(0);
    expect(install.stdout).toContain(`claude-code (user): ${userSettings()}`);
    expect(install.stdout).toMatch(/\+ PreToolUse: .*keel\.js hook claude-code\n/);
    expect(install.stdout).toMatch(/\+ PermissionRequest: /);
    expect(readFileSync(`${userSettings()}.keel-backup`, "utf8")).toBe(before);
    const installed = JSON.parse(readFileSync(userSettings(), "utf8"));
    expect(installed.permissions).toEqual({ deny: ["Bash(rm:*)"] });
    expect(installed.hooks.PreToolUse[0]).toEqual(other);
    expect(installed.hooks.PreToolUse[1].hooks[0]).toMatchObject({ type: "command", timeout: 30 });

    const again = await keel(["hook", "install", "claude-code", "--user"]);
    expect(again.stdout).toMatch(/already installed; nothing changed/);

    const strict = await keel(["hook", "install", "claude-code", "--strict"]);
    expect(strict.stdout).toMatch(/~ PreToolUse: .*hook claude-code --strict/);

    const status = await keel(["hook", "status"]);
    expect(status.stdout).toContain(
      `claude-code (user) ${userSettings()}: installed for PreToolUse, PermissionRequest (strict)`,
    );

    const uninstall = await keel(["hook", "uninstall", "claude-code"]);
    expect(uninstall.code).toBe(0);
    expect(uninstall.stdout).toMatch(/- PreToolUse: /);
    // Back to the very bytes of before (the backup, which never held the hook), and no backup left.
    expect(uninstall.stdout).toMatch(/restored as it was before install/);
    expect(readFileSync(userSettings(), "utf8")).toBe(before);
    expect(existsSync(`${userSettings()}.keel-backup`)).toBe(false);
    const none = await keel(["hook", "status"]);
    expect(none.stdout).toMatch(/not installed for any agent/);
  });

  it("installs per scope and per agent, into the files each agent reads", { timeout: 120_000 }, async () => {
    const [project, local, gemini, codex, geminiLocal] = await Promise.all([
      keel(["hook", "install", "claude-code", "--project"]),
      keel(["hook", "install", "claude-code", "--local"]),
      keel(["hook", "install", "gemini-cli", "--project"]),
      keel(["hook", "install", "codex"]),
      keel(["hook", "install", "gemini-cli", "--local"]),
    ]);
    for (const run of [project, local, gemini, codex]) expect(run.code).toBe(0);
    expect(existsSync(join(world.project, ".claude", "settings.json"))).toBe(true);
    expect(existsSync(join(world.project, ".claude", "settings.local.json"))).toBe(true);
    const geminiSettings = JSON.parse(readFileSync(join(world.project, ".gemini", "settings.json"), "utf8"));
    expect(geminiSettings.hooks.BeforeTool[0]).toMatchObject({
      matcher: "*",
      hooks: [{ name: "keel", type: "command", timeout: 30000 }],
    });
    expect(gemini.stdout).toMatch(/note: Gemini CLI runs hooks unless `hooksConfig.enabled` is false/);
    expect(codex.stdout).toMatch(
      /note: Codex runs a new or changed command hook only once you review and trust it/,
    );
    const codexHooks = JSON.parse(readFileSync(join(world.home, ".codex", "hooks.json"), "utf8"));
    expect(Object.keys(codexHooks.hooks)).toEqual(["PreToolUse", "PermissionRequest"]);
    expect(geminiLocal.code).toBe(2);
    expect(geminiLocal.stderr).toMatch(/gemini-cli has no local settings; use --user or --project/);
  });

  it("changes a symlinked settings file (dotfiles) through its link, and keeps the link", {
    timeout: 60_000,
  }, async () => {
    const dotfiles = join(world.base, "dotfiles");
    mkdirSync(dotfiles, { recursive: true });
    const target = join(dotfiles, "claude-settings.json");
    writeFileSync(target, JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] } }));
    rmSync(userSettings(), { force: true });
    symlinkSync(target, userSettings());
    const install = await keel(["hook", "install", "claude-code"]);
    expect(install.code).toBe(0);
    expect(lstatSync(userSettings()).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(target, "utf8")).hooks.PreToolUse[0].hooks[0].command).toMatch(
      /hook claude-code$/,
    );
    const uninstall = await keel(["hook", "uninstall", "claude-code"]);
    expect(uninstall.code).toBe(0);
    expect(lstatSync(userSettings()).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(target, "utf8"))).toEqual({ permissions: { deny: ["Bash(rm:*)"] } });
  });

  it("refuses to touch a settings file it cannot read", { timeout: 60_000 }, async () => {
    mkdirSync(join(world.home, ".claude"), { recursive: true });
    writeFileSync(userSettings(), "{ not json");
    const install = await keel(["hook", "install", "claude-code"]);
    expect(install.code).toBe(2);
    expect(install.stderr).toMatch(/settings\.json:1:\d+: invalid JSON/);
    expect(readFileSync(userSettings(), "utf8")).toBe("{ not json");
  });
});
