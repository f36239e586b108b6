// `keel hook install` into settings a team shares, and `uninstall` leaving things as they were. Real
// `keel` processes on real files; the shared command is run by a real shell, once with a `keel` on PATH
// (a launcher script in a temporary bin folder) and once on a machine without one.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHookWorld, type HookWorld } from "../../guard/testing/world.ts";
import { ENTRY, runScript } from "../testing/keelProcess.ts";

let world: HookWorld;
beforeEach(() => {
  world = createHookWorld({});
});
afterEach(() => world.cleanup());

const keel = (args: string[]) => runScript(ENTRY, args, { cwd: world.project, env: world.env });

/** A folder holding a `keel` that runs this Keel (as `npm i -g` would put one on PATH). */
function binWithKeel(): string {
  const bin = join(world.base, "bin");
  mkdirSync(bin, { recursive: true });
  const launcher = join(bin, "keel");
  writeFileSync(launcher, `#!/bin/sh\nexec '${process.execPath}' '${ENTRY}' "$@"\n`);
  chmodSync(launcher, 0o755);
  return bin;
}

const hookCommand = (file: string, event: string) =>
  (
    JSON.parse(readFileSync(file, "utf8")) as {
      hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>>;
    }
  ).hooks[event]![0]!.hooks[0]!.command;

/** Runs a hook command as the agents do (through the shell), with `event` on stdin. */
function runHookCommand(command: string, path: string, event: unknown) {
  return spawnSync("/bin/sh", ["-c", command], {
    cwd: world.project,
    env: { ...world.env, PATH: path },
    input: JSON.stringify(event),
    encoding: "utf8",
  });
}

describe("keel hook install --project: a command that travels", () => {
  it("names no path of this machine; runs the keel on PATH; without one says so and exits 2 (block)", async () => {
    const install = await keel(["hook", "install", "claude-code", "--project"]);
    expect(install.code).toBe(0);
    expect(install.stdout).toMatch(/this file is shared: the command runs the keel on each machine's PATH/);
    const file = join(world.project, ".claude", "settings.json");
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain(world.base);
    expect(text).not.toContain(process.execPath);
    expect(text).not.toMatch(/keel\.js/);

    const command = hookCommand(file, "PreToolUse");
    const event = {
      session_id: "teammate-session",
      transcript_path: join(world.home, "t.jsonl"),
      cwd: world.project,
      permission_mode: "default",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "git status && ls src | head" },
      tool_use_id: "toolu_1",
    };
    const systemPath = "/usr/bin:/bin";
    // A teammate with Keel installed: Keel answers.
    const withKeel = runHookCommand(command, `${binWithKeel()}:${systemPath}`, event);
    expect(withKeel.status).toBe(0);
    expect(JSON.parse(withKeel.stdout)).toMatchObject({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" },
    });
    // A teammate without it: one line that says so, exit 1 (an error Claude Code shows, never 2 = block).
    const without = runHookCommand(command, systemPath, event);
    expect(without.status).toBe(2);
    expect(without.stdout).toBe("");
    expect(without.stderr).toBe(
      "Keel's hook in this project's settings cannot run: no keel on PATH, so Claude Code refuses this call. Install Keel (see its README), or remove Keel's hook from the project's settings.\n",
    );

    world.env.PATH = systemPath;
    const status = await keel(["hook", "status"]);
    expect(status.stdout).toMatch(/cannot start here: no keel on this PATH/);
    expect(status.stdout).toMatch(
      /where keel is not on PATH it prints that and exits 2: claude-code refuses each call with that reason until Keel is installed\./,
    );
    world.env.PATH = `${binWithKeel()}:${systemPath}`;
    const found = await keel(["hook", "status"]);
    expect(found.stdout).toContain(`starts here: keel on PATH is ${join(world.base, "bin", "keel")}.`);
  });

  it("the user's own settings keep this machine's paths, and status says they start here", async () => {
    const install = await keel(["hook", "install", "claude-code"]);
    expect(install.code).toBe(0);
    const command = hookCommand(join(world.home, ".claude", "settings.json"), "PreToolUse");
    expect(command).toContain(process.execPath);
    const status = await keel(["hook", "status"]);
    expect(status.stdout).toMatch(/starts here \(this machine's Node and keel, by absolute path\)/);
  });

  it("an older project install with this machine's paths: status says teammates cannot start it", async () => {
    const install = await keel([
      "hook",
      "install",
      "claude-code",
      "--project",
      "--command",
      "/nowhere/node /nowhere/keel.js hook claude-code",
    ]);
    expect(install.code).toBe(0);
    const status = await keel(["hook", "status"]);
    expect(status.stdout).toMatch(/cannot start here: \/nowhere\/node, \/nowhere\/keel\.js missing/);
    expect(status.stdout).toMatch(
      /this shared file names this machine's paths, so teammates' checkouts cannot start it/,
    );
  });
});

describe("keel hook uninstall leaves things as they were before install", () => {
  it.each([
    ["claude-code", ["--project"], () => join(world.project, ".claude")],
    ["gemini-cli", ["--project"], () => join(world.project, ".gemini")],
    ["codex", [], () => join(world.home, ".codex")],
    ["codex", ["--project"], () => join(world.project, ".codex")],
  ] as const)(
    "%s %j: a file (and folder) install created is removed, not left as {}",
    async (agent, scope, folder) => {
      expect(existsSync(folder())).toBe(false);
      expect((await keel(["hook", "install", agent, ...scope])).code).toBe(0);
      expect(existsSync(folder())).toBe(true);
      const uninstall = await keel(["hook", "uninstall", agent, ...scope]);
      expect(uninstall.code).toBe(0);
      expect(uninstall.stdout).toMatch(/Keel had created it and nothing else was in it/);
      expect(existsSync(folder())).toBe(false);
    },
  );

  it("a file that was there: its bytes come back, and no backup that holds the hook is left", async () => {
    const file = join(world.home, ".claude", "settings.json");
    mkdirSync(join(world.home, ".claude"), { recursive: true });
    const before = '{\n    "model": "opus",  "permissions": {"deny": ["Read(./secrets/**)"]}\n}\n';
    writeFileSync(file, before);
    await keel(["hook", "install", "claude-code"]);
    // Reinstalling with other flags keeps the first backup: the file as it was before Keel.
    await keel(["hook", "install", "claude-code", "--strict"]);
    expect(readFileSync(`${file}.keel-backup`, "utf8")).toBe(before);
    await keel(["hook", "uninstall", "claude-code"]);
    expect(readFileSync(file, "utf8")).toBe(before);
    expect(existsSync(`${file}.keel-backup`)).toBe(false);
  });

  it("a file changed since install keeps the change; the stale backup goes", async () => {
    const file = join(world.home, ".claude", "settings.json");
    mkdirSync(join(world.home, ".claude"), { recursive: true });
    writeFileSync(file, JSON.stringify({ model: "opus" }));
    await keel(["hook", "install", "claude-code"]);
    const installed = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...installed, env: { FOO: "1" } }));
    const uninstall = await keel(["hook", "uninstall", "claude-code"]);
    expect(uninstall.stdout).toMatch(/other settings changed since install, so they are kept/);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ model: "opus", env: { FOO: "1" } });
    expect(existsSync(`${file}.keel-backup`)).toBe(false);
  });

  it("a file that was {} before install stays {}", async () => {
    const file = join(world.home, ".codex", "hooks.json");
    mkdirSync(join(world.home, ".codex"), { recursive: true });
    writeFileSync(file, "{}\n");
    await keel(["hook", "install", "codex"]);
    await keel(["hook", "uninstall", "codex"]);
    expect(readFileSync(file, "utf8")).toBe("{}\n");
    expect(existsSync(`${file}.keel-backup`)).toBe(false);
  });
});
