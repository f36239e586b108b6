// The decision server as users meet it: bin/keel.js and the built CLI (dist/, which `npm install` builds),
// real processes, a real socket in a private folder of the test's own. A served answer must be the answer
// the command gives in its own process (KEEL_DECISION_SERVER=off) and the answer decide() gives in
// process, for every shared bash case, with settings read afresh, in the caller's folder and environment.
// One server per user and build, whatever the callers' environments; it decides concurrently, never
// holds a caller longer than a second or so when it cannot answer, and keeps no record of an answer its
// client did not take.
import { spawn } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { callInSession, decide } from "../../permissions/decide.ts";
import type { PermissionMode } from "../../permissions/types.ts";
import { loadSettings } from "../../settings/load.ts";
import { trustFolder } from "../../settings/trust.ts";
import { initBashParser } from "../../shell/analyze/grammar/parse.ts";
import {
  type BashCase,
  loadBashCases,
  SHARED_CASES_FILE,
} from "../../shell/analyze/testing/bashExtraCases.ts";
import { createTestProject, type TestProject } from "../../shell/analyze/testing/project.ts";
import { createToolUseContext } from "../../tool/createContext.ts";
import { BashTool } from "../../tools/bash/BashTool.ts";
import { runScript } from "../testing/keelProcess.ts";
import { SERVER_DIR_VARIABLE, serverDir } from "./address.ts";
import { askServer, listServers, type ServerStatus, stopServers, waitForServer } from "./control.ts";
import { PROTOCOL_VERSION, type ServerRequest } from "./protocol.ts";
import { servedCommand } from "./served.ts";

const repo = join(import.meta.dirname, "../../..");
const LAUNCHER = join(repo, "bin/keel.js");

let base: string;
let project: TestProject;
let env: NodeJS.ProcessEnv;

function launch(args: string[], options: { cwd?: string; stdin?: string; env?: NodeJS.ProcessEnv } = {}) {
  return runScript(LAUNCHER, args, {
    cwd: options.cwd ?? project.root,
    env: options.env ?? env,
    ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
  });
}

/** The same command decided in its own process. */
function launchLocally(
  args: string[],
  options: { cwd?: string; stdin?: string; env?: NodeJS.ProcessEnv } = {},
) {
  return launch(args, { ...options, env: { ...(options.env ?? env), KEEL_DECISION_SERVER: "off" } });
}

/** The running server, started by a call when there is none (so each test stands alone). */
async function ensureServer(): Promise<ServerStatus> {
  const running = await listServers(env);
  if (running[0]) return running[0];
  await launch(["check", "Read", "{}"]);
  return waitForServer(env);
}

async function theServer(): Promise<ServerStatus> {
  const servers = await listServers(env);
  expect(servers).toHaveLength(1);
  return servers[0] as ServerStatus;
}

function hookEvent(command: string, options: { cwd?: string; mode?: string } = {}): string {
  return JSON.stringify({
    session_id: "served",
    transcript_path: join(base, "transcript.jsonl"),
    cwd: options.cwd ?? project.root,
    permission_mode: options.mode ?? "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: "toolu_served",
  });
}

function writeRules(root: string, rules: { allow?: readonly string[]; deny?: readonly string[] }): void {
  writeFileSync(
    join(root, ".claude", "settings.json"),
    JSON.stringify({ permissions: { allow: rules.allow ?? [], deny: rules.deny ?? [] } }),
  );
}

function auditLines(home = env.HOME as string): number {
  const dir = join(home, ".keel", "audit");
  if (!existsSync(dir)) return 0;
  return readdirSync(dir)
    .map((name) => readFileSync(join(dir, name), "utf8").split("\n").filter(Boolean).length)
    .reduce((a, b) => a + b, 0);
}

async function stopAll(): Promise<void> {
  for (const server of await listServers(env)) {
    try {
      process.kill(server.pid, "SIGKILL");
    } catch {}
  }
  await stopServers(env);
}

/** The hook's answer as a behavior: allow, deny, ask (the agent's own prompt), or none (silence). */
function hookBehavior(stdout: string): string {
  if (stdout.trim() === "") return "none";
  const reply = JSON.parse(stdout) as { hookSpecificOutput: { permissionDecision: string } };
  return reply.hookSpecificOutput.permissionDecision;
}

const CHECK_BEHAVIOR: Record<number, string> = { 0: "allow", 1: "ask", 3: "deny" };

beforeAll(async () => {
  if (!existsSync(join(repo, "dist/cli/decisionServer/client.js")))
    throw new Error("dist/ is not built: run `npm run build` (npm install does it) before these tests");
  await initBashParser();
  base = realpathSync(mkdtempSync(join(tmpdir(), "keel-decision-server-")));
  const servers = join(base, "run");
  const home = join(base, "home");
  mkdirSync(servers, { mode: 0o700 });
  mkdirSync(home);
  project = createTestProject();
  env = {
    PATH: process.env.PATH,
    HOME: home,
    KEEL_HOME: home,
    KEEL_MANAGED_SETTINGS: join(base, "no-managed-settings.json"),
    // The servers of this file listen in its own private folder, never in the user's.
    [SERVER_DIR_VARIABLE]: servers,
    KEEL_DECISION_SERVER_IDLE_MS: "300000",
  };
  trustFolder(project.root, env);
});

afterAll(async () => {
  await stopAll();
  project.cleanup();
  rmSync(base, { recursive: true, force: true });
});

describe("the decision server", () => {
  afterEach(async () => {
    writeRules(project.root, {});
  });

  it("is started by the first call, which decides itself; later calls are answered by it", async () => {
    await stopAll();
    const input = JSON.stringify({ file_path: join(project.root, "README.md") });
    const first = await launch(["check", "Read", input]);
    expect(first.code).toBe(0);
    const server = await waitForServer(env);
    expect(server.requests).toBe(0);
    expect(server.socket.startsWith(env[SERVER_DIR_VARIABLE] as string)).toBe(true);
    const second = await launch(["check", "Read", input]);
    expect(second).toEqual(first);
    expect((await theServer()).requests).toBe(1);
  });

  it("gives every shared bash case one answer: decide() in process, keel check and keel hook, served and in their own process", {
    timeout: 600_000,
  }, async () => {
    await ensureServer();
    const cases = loadBashCases(SHARED_CASES_FILE).filter((testCase: BashCase) => !testCase.needs_fs);
    expect(cases.length).toBeGreaterThan(50);
    const before = (await theServer()).requests;
    const auditBefore = auditLines();
    for (const testCase of cases) {
      writeRules(project.root, { allow: testCase.context.allow_rules, deny: testCase.context.deny_rules });
      const command = testCase.command.split(testCase.context.cwd_root ?? "/project").join(project.root);
      const mode = testCase.context.mode ?? "default";
      const settings = loadSettings({
        cwd: project.root,
        env,
        cli: { permissionMode: mode as PermissionMode },
      });
      const session = createToolUseContext({
        tools: [BashTool],
        permissionContext: settings.permissionContext,
      });
      const inProcess = await decide(callInSession(BashTool, { command }, session, "person"));
      const event = hookEvent(command, { mode });
      const check = ["check", "Bash", JSON.stringify({ command }), "--mode", mode];
      const [servedHook, localHook, servedCheck, localCheck] = await Promise.all([
        launch(["hook", "claude-code"], { stdin: event }),
        launchLocally(["hook", "claude-code"], { stdin: event }),
        launch(check),
        launchLocally(check),
      ]);
      const id = testCase.id;
      expect({ id, ...servedHook }).toEqual({ id, ...localHook });
      expect({ id, ...servedCheck }).toEqual({ id, ...localCheck });
      expect({ id, check: CHECK_BEHAVIOR[servedCheck.code ?? -1] }).toEqual({
        id,
        check: inProcess.behavior,
      });
      // The hook leaves an ask to Claude Code's own rules only when no rule or safety check asked.
      const hook = hookBehavior(servedHook.stdout);
      expect({ id, hook: hook === "none" ? "ask" : hook }).toEqual({ id, hook: inProcess.behavior });
    }
    // Every one was served (none fell back), and each hook decision was recorded once by each side.
    expect((await theServer()).requests - before).toBe(2 * cases.length);
    expect(auditLines() - auditBefore).toBe(2 * cases.length);
  });

  it("reads the settings afresh for every request", async () => {
    await ensureServer();
    const input = JSON.stringify({ command: "git status" });
    expect((await launch(["check", "Bash", input])).code).toBe(0);
    writeRules(project.root, { deny: ["Bash(git status:*)"] });
    const denied = await launch(["check", "Bash", input]);
    expect(denied.code).toBe(3);
    expect(denied.stdout).toContain("Bash(git status:*)");
  });

  it("decides in the caller's folder, with its project's settings", async () => {
    await ensureServer();
    const other = createTestProject();
    try {
      trustFolder(other.root, env);
      writeRules(other.root, { deny: ["Bash(rm:*)"] });
      const input = JSON.stringify({ command: "rm foo.txt" });
      const before = (await theServer()).requests;
      const here = await launch(["check", "Bash", input]);
      const there = await launch(["check", "Bash", input], { cwd: other.root });
      expect(here.code).toBe(1);
      expect(there.code).toBe(3);
      expect(there).toEqual(await launchLocally(["check", "Bash", input], { cwd: other.root }));
      expect((await theServer()).requests - before).toBe(2);
    } finally {
      other.cleanup();
    }
  });

  it("decides with the caller's environment: 50 callers with other HOMEs and variables share one server", {
    timeout: 300_000,
  }, async () => {
    const server = await ensureServer();
    const before = server.requests;
    // `~` is the caller's home: inside the project for some callers, outside for others.
    const input = JSON.stringify({ file_path: "~/README.md" });
    for (let i = 0; i < 50; i++) {
      const home = i % 2 === 0 ? project.root : join(base, `home-${i}`);
      mkdirSync(home, { recursive: true });
      const caller = { ...env, HOME: home, UNRELATED: `value-${i}` };
      const served = await launch(["check", "Read", input], { env: caller });
      expect(served.code).toBe(i % 2 === 0 ? 0 : 1);
      if (i % 10 === 0)
        expect(served).toEqual(await launchLocally(["check", "Read", input], { env: caller }));
    }
    const servers = await listServers(env);
    expect(servers.map((one) => one.pid)).toEqual([server.pid]);
    expect((servers[0] as ServerStatus).requests - before).toBe(50);
  });

  it("refuses a hook event it cannot read, as the hook does in its own process", async () => {
    await ensureServer();
    for (const stdin of ["not json", "", "[1, 2]", JSON.stringify({ hook_event_name: "PreToolUse" })]) {
      const served = await launch(["hook", "claude-code"], { stdin });
      expect(served).toEqual(await launchLocally(["hook", "claude-code"], { stdin }));
      expect(served.code).toBe(2);
      expect(served.stderr).toMatch(/refuses the call/);
    }
    const huge = `{"x": "${"a".repeat(17 * 1024 * 1024)}"}`;
    const served = await launch(["hook", "claude-code"], { stdin: huge });
    expect(served.code).toBe(2);
    expect(served.stderr).toContain("is larger than");
  });

  it("answers a hook whose agent never closes stdin once the time is up, and ends", {
    timeout: 40_000,
  }, async () => {
    await ensureServer();
    const before = (await theServer()).requests;
    const child = spawn(process.execPath, [LAUNCHER, "hook", "claude-code"], { cwd: project.root, env });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.stdin.write('{"hook_event_name": "PreToolUse", ');
    // stdin stays open: the answer comes when the 10 s are up, and the process must end then.
    const code = await new Promise((resolve) => child.once("close", resolve));
    child.stdin.destroy();
    expect(code).toBe(2);
    expect(stderr).toMatch(/no complete event on stdin within 10 s.*refuses the call/);
    expect((await theServer()).requests - before).toBe(1);
  });

  it("declines what a client would not send, and other builds (a stale server stops)", async () => {
    const server = await ensureServer();
    const replyOf = (asked: Awaited<ReturnType<typeof askServer>>) =>
      "reply" in asked ? asked.reply : undefined;
    const request = (change: Partial<Extract<ServerRequest, { type: "decide" }>>) =>
      askServer(server.socket, {
        type: "decide",
        version: PROTOCOL_VERSION,
        build: server.build,
        command: "check",
        argv: ["check", "Read", "{}"],
        cwd: project.root,
        env: { ...(env as Record<string, string>) },
        tty: { stdin: false, stdout: false, stderr: false },
        ...change,
      }).then(replyOf);
    // Only decisions: never the agent, an MCP server or a tool call.
    for (const argv of [["run", "task"], ["mcp"], ["tool", "Read", "{}"], ["check", "Read", "-"]])
      expect(await request({ argv })).toEqual({ type: "declined", reason: "not a command a server runs" });
    expect(await request({ cwd: "relative" })).toEqual({ type: "declined", reason: "unreadable request" });
    const answered = await request({ env: { ...(env as Record<string, string>), EXTRA: "1" } });
    expect(answered?.type).toBe("done");
    expect(replyOf(await askServer(server.socket, { type: "status", version: 1 }))).toEqual({
      type: "declined",
      reason: "another protocol version",
    });
    const otherBuild = await request({ build: "another" });
    expect(otherBuild).toEqual({ type: "declined", reason: "another build" });
    for (let waited = 0; existsSync(server.socket) && waited < 5_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(existsSync(server.socket)).toBe(false);
  });

  it("a stopped server costs a call about a second: the call decides itself, correctly", {
    timeout: 20_000,
  }, async () => {
    const server = await ensureServer();
    process.kill(server.pid, "SIGSTOP");
    try {
      const input = JSON.stringify({ command: "rm -rf build" });
      writeRules(project.root, { deny: ["Bash(rm:*)"] });
      // The old client waited 60 s for a stopped server; this test's own limit is 20 s.
      const call = await launch(["check", "Bash", input]);
      expect(call.code).toBe(3);
      expect(call).toEqual(await launchLocally(["check", "Bash", input]));
    } finally {
      process.kill(server.pid, "SIGCONT");
    }
  });

  it("a client that gives up leaves one audit record: its own", { timeout: 30_000 }, async () => {
    const server = await ensureServer();
    const before = auditLines();
    const requestsBefore = (await theServer()).requests;
    process.kill(server.pid, "SIGSTOP");
    let call: Awaited<ReturnType<typeof launch>>;
    try {
      call = await launch(["hook", "claude-code"], { stdin: hookEvent("git status") });
    } finally {
      process.kill(server.pid, "SIGCONT");
    }
    expect(call.code).toBe(0);
    expect(hookBehavior(call.stdout)).toBe("allow");
    // The server now reads the request the client left behind, finds the client gone, and keeps nothing.
    for (let waited = 0; waited < 2_000; waited += 100)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const after = await theServer();
    expect(after.pid).toBe(server.pid);
    expect(after.running).toBe(0);
    expect(after.requests).toBe(requestsBefore);
    expect(auditLines() - before).toBe(1);
  });

  it("decides many requests at once: one that waits does not hold up the others", {
    timeout: 60_000,
  }, async () => {
    await ensureServer();
    // An MCP server that never answers: deciding a call of its tool waits on it.
    const silent = join(base, "silent-mcp.js");
    writeFileSync(silent, "setTimeout(() => {}, 30_000);\n");
    const config = JSON.stringify({ mcpServers: { silent: { command: process.execPath, args: [silent] } } });
    const before = (await theServer()).requests;
    const waiting = spawn(
      process.execPath,
      [LAUNCHER, "check", "mcp__silent__x", "{}", "--mcp-config", config],
      {
        cwd: project.root,
        env,
        stdio: "ignore",
      },
    );
    try {
      for (let waited = 0; (await theServer()).running === 0 && waited < 10_000; waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await theServer()).running).toBe(1);
      const quick = await launch(["check", "Bash", JSON.stringify({ command: "ls" })]);
      expect(quick.code).toBe(0);
      const now = await theServer();
      // Answered by the server while the waiting request is still being decided.
      expect(now.requests - before).toBe(1);
      expect(now.running).toBe(1);
      expect(waiting.exitCode).toBe(null);
    } finally {
      waiting.kill("SIGKILL");
    }
  });

  it("after a server dies, the next call decides itself and starts another", async () => {
    const dead = await ensureServer();
    process.kill(dead.pid, "SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 200));
    const input = JSON.stringify({ command: "ls" });
    const call = await launch(["check", "Bash", input]);
    expect(call.code).toBe(0);
    const next = await waitForServer(env, (server) => server.pid !== dead.pid);
    expect(next.requests).toBe(0);
  });

  it("keel daemon stop also stops a server that is still starting", async () => {
    await stopAll();
    await launch(["check", "Read", "{}"]);
    // The first call has returned; its server is still loading.
    expect((await launch(["daemon", "stop"])).stdout).toBe("Stopped 1 decision server(s).\n");
    expect(await listServers(env)).toEqual([]);
  });

  it("keel daemon status shows each server's build and log, and asking does not keep it alive", async () => {
    const server = await ensureServer();
    const status = await launch(["daemon", "status"]);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`pid ${server.pid}`);
    expect(status.stdout).toContain(`build: ${server.build}`);
    expect(status.stdout).toContain(`log: ${server.log}`);
    const stopped = await launch(["daemon", "stop"]);
    expect(stopped.stdout).toBe("Stopped 1 decision server(s).\n");
    for (let waited = 0; existsSync(server.socket) && waited < 5_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await launch(["daemon", "status"])).stdout).toBe("No decision server is running.\n");
  });

  it("exits when idle, counting only decisions (status requests do not keep it alive)", {
    timeout: 30_000,
  }, async () => {
    await stopAll();
    const idle = { ...env, KEEL_DECISION_SERVER_IDLE_MS: "1500" };
    await launch(["check", "Read", "{}"], { env: idle });
    const server = await waitForServer(idle);
    for (let asked = 0; existsSync(server.socket) && asked < 50; asked++) {
      await listServers(idle);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(existsSync(server.socket)).toBe(false);
  });

  it("stops soon after Keel is rebuilt (its build is no longer the one clients name)", async () => {
    await stopAll();
    // A copy of the launcher and build, inside the repository so the external packages resolve.
    const copy = join(repo, "node_modules/.cache", `keel-decision-server-test-${process.pid}`);
    rmSync(copy, { recursive: true, force: true });
    cpSync(join(repo, "bin"), join(copy, "bin"), { recursive: true });
    cpSync(join(repo, "dist"), join(copy, "dist"), { recursive: true });
    cpSync(join(repo, "package.json"), join(copy, "package.json"));
    try {
      const checking = { ...env, KEEL_DECISION_SERVER_CHECK_MS: "200" };
      await runScript(join(copy, "bin/keel.js"), ["check", "Read", "{}"], {
        cwd: project.root,
        env: checking,
      });
      const server = await waitForServer(checking);
      const entry = join(copy, "dist/cli-bundle/main.js");
      const later = new Date(Date.now() + 60_000);
      utimesSync(entry, later, later);
      for (let waited = 0; existsSync(server.socket) && waited < 10_000; waited += 100)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(existsSync(server.socket)).toBe(false);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it("is not used or started when KEEL_DECISION_SERVER=off", async () => {
    await stopAll();
    const local = await launchLocally(["check", "Read", "{}"]);
    expect(local.code).not.toBe(null);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await listServers(env)).toEqual([]);
  });
});

describe("which commands a server may answer", () => {
  it.each([
    [["check", "Bash", '{"command": "ls"}'], "check"],
    [["check", "Bash", '{"command": "ls"}', "--json", "--cwd", "/x"], "check"],
    [["check", "Bash", "-"], undefined],
    [["check", "Bash"], undefined],
    [["check", "--cwd", "/x", "Bash", "{}"], undefined],
    [["check", "Bash", "{}", "--help"], undefined],
    [["hook", "claude-code"], "hook"],
    [["hook", "codex", "--strict"], "hook"],
    [["tool", "Read", '{"file_path": "/x"}'], undefined],
    [["tools"], undefined],
    [["run", "task"], undefined],
    [["hook", "install", "claude-code"], undefined],
  ] as const)("%j -> %s", (argv, expected) => {
    expect(servedCommand(argv, { stdin: false })).toBe(expected);
  });

  it("leaves a hook typed on a terminal to its own process (it explains itself)", () => {
    expect(servedCommand(["hook", "claude-code"], { stdin: true })).toBeUndefined();
    expect(servedCommand(["check", "Read", '{"file_path": "/x"}'], { stdin: true })).toBe("check");
  });
});

describe("the server's request path changes nothing about its own process", () => {
  // Every module a served decision runs through: the server, the CLI entry it calls, the two commands,
  // the decision and what it reads. None may change the process's folder, environment or output streams.
  const roots = [
    "src/cli/decisionServer",
    "src/cli/main.ts",
    "src/cli/io.ts",
    "src/cli/session.ts",
    "src/cli/commands/check.ts",
    "src/cli/commands/hook.ts",
    "src/guard",
    "src/permissions",
    "src/settings",
    "src/shell/analyze",
  ];
  const files = roots.flatMap((root) => sourceFiles(join(repo, root)));
  const FORBIDDEN: Array<[string, RegExp]> = [
    ["process.chdir", /process\.chdir\s*\(/],
    ["an assignment to process.env", /process\.env(\.\w+|\[[^\]]+\])?\s*=[^=]/],
    ["a deletion from process.env", /delete\s+process\.env/],
    ["a replacement of a stream's write", /\.(stdout|stderr)\.write\s*=[^=]/],
    ["a change of isTTY", /\.isTTY\s*=[^=]/],
  ];

  it("covers the modules", () => expect(files.length).toBeGreaterThan(80));

  it.each(FORBIDDEN)("no %s", (_what, pattern) => {
    const offenders = files.filter((file) => pattern.test(readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });

  it("the table fires on what it forbids", () => {
    const samples = [
      "process.chdir(dir)",
      "process.env.HOME = x",
      "process.env[name] = v",
      "delete process.env.X",
      "process.stdout.write = fake",
      "stream.isTTY = true",
    ];
    for (const sample of samples) expect(FORBIDDEN.some(([, pattern]) => pattern.test(sample))).toBe(true);
    for (const allowed of ["process.env.HOME === x", "const cwd = process.cwd()", "io.out(text)"])
      expect(FORBIDDEN.some(([, pattern]) => pattern.test(allowed))).toBe(false);
  });
});

function sourceFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return path.endsWith(".ts") && !path.endsWith(".test.ts") ? [path] : [];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) =>
    entry.name === "testing" ? [] : sourceFiles(join(path, entry.name)),
  );
}

describe("the server's folder", () => {
  const uid = process.getuid?.() as number;
  let root: string;
  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "keel-server-dir-")));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("is the account's own, whatever the environment says", () => {
    const chosen = serverDir({});
    expect(chosen === join(`/run/user/${uid}`, "keel") || chosen === join("/tmp", `keel-${uid}`)).toBe(true);
    expect(serverDir({ TMPDIR: root, XDG_RUNTIME_DIR: root, HOME: root, FOO: "x" })).toBe(chosen);
  });

  it("is KEEL_DECISION_SERVER_DIR when it names a private folder", () => {
    const mine = join(root, "mine");
    mkdirSync(mine, { mode: 0o700 });
    expect(serverDir({ [SERVER_DIR_VARIABLE]: mine })).toBe(mine);
  });

  it("is none when the folder is a symlink or others may enter it", () => {
    mkdirSync(join(root, "elsewhere"), { mode: 0o700 });
    symlinkSync(join(root, "elsewhere"), join(root, "linked"));
    expect(serverDir({ [SERVER_DIR_VARIABLE]: join(root, "linked") })).toBeUndefined();
    const shared = join(root, "shared");
    mkdirSync(shared, { mode: 0o777 });
    chmodSync(shared, 0o777);
    expect(serverDir({ [SERVER_DIR_VARIABLE]: shared })).toBeUndefined();
  });
});
