// Every way a `keel` process is stopped by a signal takes what it started with it: a user hook's whole
// process tree, a Bash call, a background shell, an MCP server; and it exits as a signalled process
// does (130 / 143 / 129). Real `keel` processes, real hooks and sleeps, a scripted model server.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliProviderArgs, startServer } from "../agent/testing/harness.ts";
import { toolUse } from "../agent/testing/script.ts";
import type { ScriptedServer } from "../agent/testing/server.ts";
import { hasTmux, TmuxKeel } from "../agent/ui/testing/tmuxSession.ts";
import { ENTRY, type KeelWorld, keelWorld } from "../cli/testing/keelProcess.ts";
import type { StopSignal } from "./stopSignals.ts";
import {
  groupMembers,
  parentOf,
  processesRunning,
  processesWithArg,
  uniqueSeconds,
  waitUntil,
  waitUntilIdle,
} from "./testing/processes.ts";

const EXIT_CODES: Array<[StopSignal, number]> = [
  ["SIGTERM", 143],
  ["SIGHUP", 129],
  ["SIGINT", 130],
];

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Running {
  child: ChildProcess;
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

function startKeel(args: string[], world: KeelWorld, stdin: "ignore" | "pipe" = "ignore"): Running {
  const child = spawn(process.execPath, [ENTRY, ...args], {
    cwd: world.project,
    env: world.env,
    stdio: [stdin, "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code, signal) => resolve({ code, signal, stderr }));
    },
  );
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  return { child, ended };
}

function newWorld(): KeelWorld {
  const world = keelWorld();
  cleanups.push(() => {
    // Whatever a failing test left that names this world (its MCP server).
    for (const info of processesWithArg(world.root)) process.kill(info.pid, "SIGKILL");
  });
  return world;
}

/** A PreToolUse hook whose shell waits on one sleep with another in the background: a tree of three. */
function hookTree(world: KeelWorld): { seconds: [string, string] } {
  const seconds: [string, string] = [uniqueSeconds(301), uniqueSeconds(302)];
  mkdirSync(join(world.project, ".keel"), { recursive: true });
  writeFileSync(
    join(world.project, ".keel", "settings.json"),
    JSON.stringify({
      hooks: {
        PreToolUse: [
          { hooks: [{ type: "command", command: `sleep ${seconds[0]} & sleep ${seconds[1]}; echo done` }] },
        ],
      },
    }),
  );
  return { seconds };
}

/** The process group running `sleep seconds`, once it runs (killed after the test, should it fail). */
async function groupOfSleep(seconds: string): Promise<number> {
  let pgid = 0;
  await waitUntil(() => {
    pgid = processesRunning(["sleep", seconds])[0]?.pgid ?? 0;
    return pgid > 0;
  }, `sleep ${seconds} to start`);
  cleanups.push(() => {
    for (const info of groupMembers(pgid)) process.kill(info.pid, "SIGKILL");
  });
  return pgid;
}

describe("keel tool stopped while a hook runs", () => {
  it.each(EXIT_CODES)("%s: the hook's whole tree ends, exit %d", async (signal, code) => {
    const world = newWorld();
    const { seconds } = hookTree(world);
    const keel = startKeel(["tool", "--trust", "LS", JSON.stringify({ path: world.project })], world);
    const pgid = await groupOfSleep(seconds[1]);
    expect(groupMembers(pgid).length).toBe(3);
    keel.child.kill(signal);
    const ended = await keel.ended;
    expect(ended.code).toBe(code);
    expect(ended.stderr).toContain(signal === "SIGINT" ? "Interrupted (Ctrl-C)" : `Stopped by ${signal}`);
    await waitUntil(() => groupMembers(pgid).length === 0, "the hook's process group to be gone", 5_000);
    for (const value of seconds) expect(processesRunning(["sleep", value])).toEqual([]);
  });
});

describe("a command that has started nothing yet", () => {
  it("SIGTERM while keel tool waits for its input on stdin: it ends at once, exit 143", async () => {
    const world = newWorld();
    const keel = startKeel(["tool", "Read", "-"], world, "pipe");
    keel.child.stdin?.write('{"file_path": ');
    // Its handlers are in place, its stdin open and half a JSON object sent: it waits for the rest.
    await waitUntilIdle(keel.child.pid!, "keel to wait for the rest of its input");
    keel.child.kill("SIGTERM");
    expect((await keel.ended).code).toBe(143);
  });
});

describe("keel tool stopped while a Bash call runs", () => {
  it("SIGTERM: the command's process group ends, exit 143", async () => {
    const world = newWorld();
    const seconds = uniqueSeconds(303);
    const keel = startKeel(
      ["tool", "--allow", "Bash(sleep:*)", "Bash", JSON.stringify({ command: `sleep ${seconds}` })],
      world,
    );
    const pgid = await groupOfSleep(seconds);
    keel.child.kill("SIGTERM");
    expect((await keel.ended).code).toBe(143);
    await waitUntil(() => groupMembers(pgid).length === 0, "the Bash call's group to be gone", 5_000);
  });

  it("--jsonl with stdin still open, SIGHUP: the call ends, nothing more is read, exit 129", async () => {
    const world = newWorld();
    const seconds = uniqueSeconds(304);
    const keel = startKeel(["tool", "--jsonl", "--allow", "Bash(sleep:*)"], world, "pipe");
    keel.child.stdin?.write(`${JSON.stringify({ name: "Bash", input: { command: `sleep ${seconds}` } })}\n`);
    const pgid = await groupOfSleep(seconds);
    keel.child.kill("SIGHUP");
    expect((await keel.ended).code).toBe(129);
    await waitUntil(() => groupMembers(pgid).length === 0, "the Bash call's group to be gone", 5_000);
  });
});

describe("keel run stopped mid-turn", () => {
  const servers: ScriptedServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it.each(EXIT_CODES.slice(0, 2))(
    "%s while a hook runs: the hook's whole tree ends, exit %d",
    async (signal, code) => {
      const world = newWorld();
      const { seconds } = hookTree(world);
      const server = await startServer("anthropic", [
        { blocks: [toolUse("LS", { path: world.project })] },
        { blocks: [{ type: "text", text: "done" }] },
      ]);
      servers.push(server);
      const keel = startKeel(["run", ...cliProviderArgs(server), "--trust", "list the files"], world);
      const pgid = await groupOfSleep(seconds[1]);
      keel.child.kill(signal);
      expect((await keel.ended).code).toBe(code);
      await waitUntil(() => groupMembers(pgid).length === 0, "the hook's process group to be gone", 5_000);
    },
  );

  it("SIGHUP while a Bash call and a background shell run: both end, exit 129", async () => {
    const world = newWorld();
    const background = uniqueSeconds(305);
    const foreground = uniqueSeconds(306);
    const server = await startServer("anthropic", [
      { blocks: [toolUse("Bash", { command: `sleep ${background}`, run_in_background: true })] },
      { blocks: [toolUse("Bash", { command: `sleep ${foreground}` })] },
      { blocks: [{ type: "text", text: "done" }] },
    ]);
    servers.push(server);
    const keel = startKeel(
      ["run", ...cliProviderArgs(server), "--allow", "Bash(sleep:*)", "sleep twice"],
      world,
    );
    const groups = [await groupOfSleep(background), await groupOfSleep(foreground)];
    keel.child.kill("SIGHUP");
    expect((await keel.ended).code).toBe(129);
    for (const pgid of groups)
      await waitUntil(() => groupMembers(pgid).length === 0, `group ${pgid} to be gone`, 5_000);
  });

  it("SIGTERM while an MCP server runs that outlives its input: it ends too, exit 143", async () => {
    const world = newWorld();
    const marker = join(world.root, "mcp-server-marker");
    const serverScript = join(import.meta.dirname, "..", "mcp", "testing", "servers", "scripted.mjs");
    const server = await startServer("anthropic", [{ blocks: [], hangAfterBlocks: 0 }]);
    servers.push(server);
    const config = {
      mcpServers: { scripted: { command: process.execPath, args: [serverScript, marker, "--linger"] } },
    };
    const keel = startKeel(
      ["run", ...cliProviderArgs(server), "--mcp-config", JSON.stringify(config), "wait"],
      world,
    );
    await waitUntil(
      () => server.requests.length > 0 && processesWithArg(marker).length > 0,
      "the MCP server to run and the model to be asked",
    );
    const [mcpServer] = processesWithArg(marker);
    expect(mcpServer?.ppid).toBe(keel.child.pid);
    keel.child.kill("SIGTERM");
    expect((await keel.ended).code).toBe(143);
    await waitUntil(() => processesWithArg(marker).length === 0, "the MCP server to be gone", 5_000);
  });
});

describe.skipIf(!hasTmux)("the terminal UI stopped while a hook runs (in tmux)", () => {
  it.each(EXIT_CODES.slice(0, 2))("%s: the hook's whole tree ends, exit %d", async (signal, code) => {
    const world = newWorld();
    const { seconds } = hookTree(world);
    const server = await startServer("anthropic", [
      { blocks: [toolUse("LS", { path: world.project })] },
      { blocks: [{ type: "text", text: "done" }] },
    ]);
    const ui = new TmuxKeel(`stop-${signal}`);
    cleanups.push(async () => {
      ui.kill();
      await server.close();
    });
    ui.start({ project: world.project, home: world.home, server, args: ["--trust", "list the files"] });
    const pgid = await groupOfSleep(seconds[1]);
    // The hook's shell leads its group; its parent is the keel the terminal runs.
    const keel = parentOf(pgid);
    expect(processesWithArg(ENTRY).map((info) => info.pid)).toContain(keel);
    process.kill(keel, signal);
    await ui.waitFor(new RegExp(`EXITED ${code}`), "keel to exit");
    await waitUntil(() => groupMembers(pgid).length === 0, "the hook's process group to be gone", 5_000);
  });
});

describe("keel mcp over stdio stopped by a signal", () => {
  it.each(EXIT_CODES)("%s: exits %d, its running Bash call's group gone", async (signal, code) => {
    const world = newWorld();
    const seconds = uniqueSeconds(307);
    const keel = startKeel(["mcp", "--allow", "Bash(sleep:*)"], world, "pipe");
    const send = (message: unknown) => keel.child.stdin?.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "Bash", arguments: { command: `sleep ${seconds}` } },
    });
    const pgid = await groupOfSleep(seconds);
    keel.child.kill(signal);
    expect((await keel.ended).code).toBe(code);
    await waitUntil(() => groupMembers(pgid).length === 0, "the Bash call's group to be gone", 5_000);
  });
});
