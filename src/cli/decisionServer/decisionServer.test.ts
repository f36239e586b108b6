// The decision server as users meet it: bin/keel.js and the built CLI (dist/, which `npm install` builds),
// real processes, a real socket in a private folder of the test's own. A served answer must be the answer
// the command gives in its own process (KEEL_DECISION_SERVER=off), for every shared bash case, with
// settings read afresh, in the caller's folder; anything the server cannot vouch for is decided locally.
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
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { trustFolder } from "../../settings/trust.ts";
import {
  type BashCase,
  loadBashCases,
  SHARED_CASES_FILE,
} from "../../shell/analyze/testing/bashExtraCases.ts";
import { createTestProject, type TestProject } from "../../shell/analyze/testing/project.ts";
import { runScript } from "../testing/keelProcess.ts";
import { keyedEnv, serverDir } from "./address.ts";
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
function launchLocally(args: string[], options: { cwd?: string; stdin?: string } = {}) {
  return launch(args, { ...options, env: { ...env, KEEL_DECISION_SERVER: "off" } });
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

function auditLines(): number {
  const dir = join(env.HOME as string, ".keel", "audit");
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

beforeAll(() => {
  if (!existsSync(join(repo, "dist/cli/decisionServer/client.js")))
    throw new Error("dist/ is not built: run `npm run build` (npm install does it) before these tests");
  base = realpathSync(mkdtempSync(join(tmpdir(), "keel-decision-server-")));
  const runtime = join(base, "run");
  const home = join(base, "home");
  mkdirSync(runtime, { mode: 0o700 });
  mkdirSync(home);
  project = createTestProject();
  env = {
    PATH: process.env.PATH,
    HOME: home,
    KEEL_HOME: home,
    KEEL_MANAGED_SETTINGS: join(base, "no-managed-settings.json"),
    // The servers of this file listen in its own private folder, never in the user's.
    XDG_RUNTIME_DIR: runtime,
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
    expect(await listServers(env)).toEqual([]);
    const input = JSON.stringify({ file_path: join(project.root, "README.md") });
    const first = await launch(["check", "Read", input]);
    expect(first.code).toBe(0);
    const server = await waitForServer(env);
    expect(server.requests).toBe(0);
    expect(server.socket.startsWith(join(env.XDG_RUNTIME_DIR as string, "keel"))).toBe(true);
    const second = await launch(["check", "Read", input]);
    expect(second).toEqual(first);
    expect((await theServer()).requests).toBe(1);
  });

  it("gives every shared bash case the answer the hook gives in its own process", {
    timeout: 240_000,
  }, async () => {
    await ensureServer();
    const cases = loadBashCases(SHARED_CASES_FILE).filter((testCase: BashCase) => !testCase.needs_fs);
    expect(cases.length).toBeGreaterThan(50);
    const before = (await theServer()).requests;
    const auditBefore = auditLines();
    for (const testCase of cases) {
      writeRules(project.root, { allow: testCase.context.allow_rules, deny: testCase.context.deny_rules });
      const command = testCase.command.split(testCase.context.cwd_root ?? "/project").join(project.root);
      const event = hookEvent(command, { mode: testCase.context.mode ?? "default" });
      const [served, local] = await Promise.all([
        launch(["hook", "claude-code"], { stdin: event }),
        launchLocally(["hook", "claude-code"], { stdin: event }),
      ]);
      expect({ id: testCase.id, ...served }).toEqual({ id: testCase.id, ...local });
    }
    // Every one was served (none fell back), and each decision was recorded once by each side.
    expect((await theServer()).requests - before).toBe(cases.length);
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

  it("runs read-only tool calls as they run in their own process, and no others", async () => {
    await ensureServer();
    const before = (await theServer()).requests;
    const calls = [
      ["Read", { file_path: join(project.root, "README.md") }],
      ["Read", { file_path: join(project.outside, "..", "elsewhere.txt") }],
      ["Grep", { pattern: "export", path: project.root }],
      ["Glob", { pattern: "**/*.ts" }],
      ["LS", { path: project.root }],
    ] as const;
    for (const [name, input] of calls) {
      const args = ["tool", name, JSON.stringify(input)];
      const served = await launch(args);
      expect({ name, ...served }).toEqual({ name, ...(await launchLocally(args)) });
    }
    expect((await theServer()).requests - before).toBe(calls.length);
    const write = [
      "tool",
      "Write",
      JSON.stringify({ file_path: join(project.root, "new.txt"), content: "x" }),
    ];
    expect((await launch([...write, "--allow", "Write"])).code).toBe(0);
    expect(readFileSync(join(project.root, "new.txt"), "utf8")).toBe("x");
    expect((await theServer()).requests - before).toBe(calls.length);
  });

  it("answers bad hook input as the hook does in its own process", async () => {
    await ensureServer();
    for (const stdin of ["not json", "", "[1, 2]", JSON.stringify({ hook_event_name: "PreToolUse" })]) {
      const served = await launch(["hook", "claude-code"], { stdin });
      expect(served).toEqual(await launchLocally(["hook", "claude-code"], { stdin }));
      expect(served.code).toBe(0);
      expect(served.stderr).toMatch(/no opinion/);
    }
    const huge = `{"x": "${"a".repeat(17 * 1024 * 1024)}"}`;
    const served = await launch(["hook", "claude-code"], { stdin: huge });
    expect(served.code).toBe(0);
    expect(served.stderr).toContain("is larger than");
  });

  it("declines requests from another environment or build, and a stale server stops", async () => {
    const server = await ensureServer();
    const request = (change: Partial<Extract<ServerRequest, { type: "run" }>>) =>
      askServer(server.socket, {
        type: "run",
        version: PROTOCOL_VERSION,
        build: server.build,
        argv: ["check", "Read", "{}"],
        cwd: project.root,
        env: { ...(env as Record<string, string>) },
        tty: { stdin: false, stdout: false, stderr: false },
        ...change,
      });
    // Only the commands a client would send: never the agent, an MCP server or a writing tool.
    for (const argv of [["run", "task"], ["mcp"], ["tool", "Write", "{}"], ["tool", "Read", "{}", "--jsonl"]])
      expect(await request({ argv })).toEqual({ type: "declined", reason: "not a command a server runs" });
    const otherEnv = await request({ env: { ...(env as Record<string, string>), EXTRA: "1" } });
    expect(otherEnv).toEqual({ type: "declined", reason: "another environment" });
    // The per-directory variables are the request's own, not part of the server's environment.
    const moved = await request({ env: { ...(env as Record<string, string>), PWD: "/elsewhere" } });
    expect(moved?.type).toBe("done");
    const nextSession = await request({
      env: { ...(env as Record<string, string>), CLAUDE_CODE_SESSION_ID: "another", CLAUDE_PID: "1" },
    });
    expect(nextSession?.type).toBe("done");
    const otherBuild = await request({ build: "another" });
    expect(otherBuild).toEqual({ type: "declined", reason: "another build" });
    for (let waited = 0; existsSync(server.socket) && waited < 5_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(existsSync(server.socket)).toBe(false);
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

  it("keel daemon status and stop", async () => {
    const server = await ensureServer();
    const status = await launch(["daemon", "status"]);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`pid ${server.pid}`);
    const stopped = await launch(["daemon", "stop"]);
    expect(stopped.stdout).toBe("Stopped 1 decision server(s).\n");
    for (let waited = 0; existsSync(server.socket) && waited < 5_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await launch(["daemon", "status"])).stdout).toBe("No decision server is running.\n");
  });

  it("stops soon after Keel is rebuilt (its build is no longer the one clients name)", async () => {
    await stopAll();
    // A copy of the launcher and build, inside the repository so the external packages resolve.
    const copy = join(repo, "node_modules/.cache", `keel-decision-server-test-${process.pid}`);
    rmSync(copy, { recursive: true, force: true });
    cpSync(join(repo, "bin"), join(copy, "bin"), { recursive: true });
    cpSync(join(repo, "dist"), join(copy, "dist"), { recursive: true });
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
    [["tool", "Read", '{"file_path": "/x"}'], "tool"],
    [["tool", "Grep", "{}"], "tool"],
    [["tool", "Write", "{}"], undefined],
    [["tool", "Bash", '{"command": "ls"}'], undefined],
    [["tool", "--jsonl"], undefined],
    [["tools"], undefined],
    [["run", "task"], undefined],
    [["hook", "install", "claude-code"], undefined],
  ] as const)("%j -> %s", (argv, expected) => {
    expect(servedCommand(argv, { stdin: false, stderr: false })).toBe(expected);
  });

  it("leaves what may ask a person on a terminal to its own process", () => {
    const input = '{"file_path": "/x"}';
    expect(servedCommand(["tool", "Read", input], { stdin: true, stderr: true })).toBeUndefined();
    expect(servedCommand(["tool", "Read", input], { stdin: true, stderr: false })).toBe("tool");
    expect(servedCommand(["hook", "claude-code"], { stdin: true, stderr: false })).toBeUndefined();
    expect(servedCommand(["check", "Read", input], { stdin: true, stderr: true })).toBe("check");
  });
});

describe("the server's folder", () => {
  const uid = process.getuid?.() as number;
  let root: string;
  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "keel-server-dir-")));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("is $XDG_RUNTIME_DIR/keel when that folder is private", () => {
    const runtime = join(root, "runtime");
    mkdirSync(runtime, { mode: 0o700 });
    expect(serverDir({ XDG_RUNTIME_DIR: runtime })).toBe(join(runtime, "keel"));
  });

  it("is <tmp>/keel-<uid> when $XDG_RUNTIME_DIR is missing or open to others", () => {
    const tmp = join(root, "tmp1");
    mkdirSync(tmp);
    const open = join(root, "open");
    mkdirSync(open, { mode: 0o755 });
    chmodSync(open, 0o755);
    expect(serverDir({ TMPDIR: tmp })).toBe(join(tmp, `keel-${uid}`));
    expect(serverDir({ TMPDIR: tmp, XDG_RUNTIME_DIR: open })).toBe(join(tmp, `keel-${uid}`));
  });

  it("is none when the folder is a symlink or others may enter it", () => {
    const linked = join(root, "tmp2");
    mkdirSync(linked);
    mkdirSync(join(root, "elsewhere"), { mode: 0o700 });
    symlinkSync(join(root, "elsewhere"), join(linked, `keel-${uid}`));
    expect(serverDir({ TMPDIR: linked })).toBeUndefined();
    const shared = join(root, "tmp3");
    mkdirSync(join(shared, `keel-${uid}`), { recursive: true, mode: 0o777 });
    chmodSync(join(shared, `keel-${uid}`), 0o777);
    expect(serverDir({ TMPDIR: shared })).toBeUndefined();
  });

  it("names a server by everything but the per-directory and per-session variables", () => {
    expect(keyedEnv({ A: "1", PWD: "/x", OLDPWD: "/y" })).toBe(keyedEnv({ A: "1", PWD: "/z" }));
    // What Claude Code gives the hooks of one session and not the next.
    const session = (id: string) => ({
      A: "1",
      CLAUDE_CODE_SESSION_ID: id,
      CLAUDE_PID: id,
      CLAUDE_CODE_MESSAGING_SOCKET: `/tmp/${id}.sock`,
      CLAUDE_CODE_MESSAGING_TOKEN: id,
      CLAUDE_CODE_CHILD_NOTES_DIR: `/tmp/${id}`,
    });
    expect(keyedEnv(session("1"))).toBe(keyedEnv(session("2")));
    expect(keyedEnv({ A: "1" })).not.toBe(keyedEnv({ A: "2" }));
  });
});
