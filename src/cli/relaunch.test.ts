// bin/keel.js started by a Node older than 22 (the system Node 20 here) runs Keel on the pinned Node 24
// as a child (bin/relaunch.js). Signals sent to the Node 20 process must reach Keel, and the process
// must end as Keel ended. Real starts of the real launcher; needs `npm run build` (dist/).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliProviderArgs, startServer } from "../agent/testing/harness.ts";
import { text, toolUse } from "../agent/testing/script.ts";
import type { ScriptedServer } from "../agent/testing/server.ts";
import { hasTmux, lastPrompt, TmuxKeel } from "../agent/ui/testing/tmuxSession.ts";
import { processesWithArg } from "../tool/testing/processes.ts";
import { keelWorld } from "./testing/keelProcess.ts";

const repo = join(import.meta.dirname, "../..");
const launcher = join(repo, "bin/keel.js");

/** A node binary older than 22 on this machine, if any (the launcher's relaunch path). */
function oldNode(): string | undefined {
  for (const candidate of ["/usr/bin/node", "/usr/local/bin/node"]) {
    if (!existsSync(candidate)) continue;
    try {
      const version = execFileSync(candidate, ["-p", "process.versions.node"], { encoding: "utf8" });
      if (Number(version.split(".")[0]) < 22) return candidate;
    } catch {}
  }
  return undefined;
}

const node20 = oldNode();
const built = existsSync(join(repo, "dist/cli/main.js"));

const servers: ScriptedServer[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

interface Started {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves when stdout or stderr has matched. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startOnOldNode(args: string[], cwd: string, env: NodeJS.ProcessEnv): Started {
  const child = spawn(node20!, [launcher, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  let err = "";
  const waiters: Array<() => void> = [];
  const poke = () => {
    for (const waiter of waiters.splice(0)) waiter();
  };
  child.stdout!.on("data", (chunk: Buffer) => {
    out += chunk.toString("utf8");
    poke();
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    err += chunk.toString("utf8");
    poke();
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const found = (out + err).match(pattern);
        if (found) return resolve(found);
        if (child.exitCode !== null || child.signalCode !== null)
          return reject(new Error(`keel ended before ${pattern}:\n${out}\n${err}`));
        waiters.push(check);
      };
      void exit.then(() => waiters.length > 0 && check());
      check();
    });
  return { child, stdout: () => out, stderr: () => err, waitFor, exit };
}

async function waitUntil(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 25));
}

function refusesConnections(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

describe.skipIf(!node20)("bin/keel.js on a Node older than 22", () => {
  it("needs a build of dist/ (npm run build)", () => {
    expect(built).toBe(true);
  });

  it("runs the command on the pinned Node and exits with its code", async () => {
    const w = keelWorld();
    const version = startOnOldNode(["--version"], w.project, w.env);
    expect(await version.exit).toEqual({ code: 0, signal: null });
    expect(version.stdout()).toMatch(/^\d+\.\d+\.\d+\n$/);
    const usage = startOnOldNode(["check"], w.project, w.env);
    expect((await usage.exit).code).toBe(2);
  });

  it("keel doctor says the relaunch costs a start, and how to avoid it", async () => {
    const w = keelWorld();
    const doctor = startOnOldNode(["doctor", "--no-mcp"], w.project, w.env);
    await doctor.exit;
    expect(doctor.stdout()).toMatch(
      /^warn {2}node {5}keel was started by Node v20\.[\d.]+ and runs again on the pinned Node/m,
    );
    expect(doctor.stdout()).toContain("fix: Put Node 22 or newer first on PATH");
  });

  it("keel mcp --http stops on SIGTERM sent to the Node 20 process", async () => {
    const w = keelWorld();
    const started = startOnOldNode(["mcp", "--http", "127.0.0.1:0"], w.project, w.env);
    const [, url] = await started.waitFor(/serving \d+ tools at (http:\/\/\S+)/);
    expect(await refusesConnections(url!)).toBe(false);
    started.child.kill("SIGTERM");
    const exit = await started.exit;
    // The server handles SIGTERM itself, ends its sessions and exits 143; the launcher ends as it did.
    expect(exit).toEqual({ code: 143, signal: null });
    expect(await refusesConnections(url!)).toBe(true);
  });

  it("SIGHUP reaches the server too: it exits 129, and so does the launcher", async () => {
    const w = keelWorld();
    const started = startOnOldNode(["mcp", "--http", "127.0.0.1:0"], w.project, w.env);
    const [, url] = await started.waitFor(/serving \d+ tools at (http:\/\/\S+)/);
    started.child.kill("SIGHUP");
    expect(await started.exit).toEqual({ code: 129, signal: null });
    expect(await refusesConnections(url!)).toBe(true);
  });

  it("a signal the child dies of is the launcher's death too (SIGKILL of the child)", async () => {
    const w = keelWorld();
    const started = startOnOldNode(["mcp", "--http", "127.0.0.1:0"], w.project, w.env);
    await started.waitFor(/serving \d+ tools at/);
    const [keel] = processesWithArg(launcher).filter((info) => info.ppid === started.child.pid);
    expect(keel).toBeDefined();
    process.kill(keel!.pid, "SIGKILL");
    expect(await started.exit).toEqual({ code: null, signal: "SIGKILL" });
  });

  it("keel run stops on SIGTERM: its command is killed and the model is not called again", async () => {
    const w = keelWorld();
    const pidFile = join(w.project, "bash.pid");
    // Found by its arguments: a confined command's $$ is its own PID namespace's, not this machine's.
    const sleeping = () =>
      execFileSync("ps", ["-eo", "args"], { encoding: "utf8" })
        .split("\n")
        .some((line) => line.trim() === "sleep 60.417");
    const server = await startServer("anthropic", [
      { blocks: [toolUse("Bash", { command: `echo $$ > ${pidFile}; sleep 60.417; echo finished` })] },
      { blocks: [text("should never be asked for")] },
    ]);
    servers.push(server);
    const started = startOnOldNode(
      ["run", ...cliProviderArgs(server), "--dangerously-skip-permissions", "run the long command"],
      w.project,
      w.env,
    );
    await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "" && sleeping());
    started.child.kill("SIGTERM");
    const exit = await started.exit;
    expect(exit).toEqual({ code: 143, signal: null });
    await waitUntil(() => !sleeping());
    expect(server.requests).toHaveLength(1);
    expect(started.stdout()).not.toContain("finished");
  });

  it("keel run stops on SIGINT sent to the Node 20 process (not from a terminal): exit 130", async () => {
    const w = keelWorld();
    const server = await startServer("anthropic", [
      { blocks: [text("Working on it"), text("never")], hangAfterBlocks: 1 },
    ]);
    servers.push(server);
    const started = startOnOldNode(["run", ...cliProviderArgs(server), "long task"], w.project, w.env);
    await started.waitFor(/Working on it/);
    started.child.kill("SIGINT");
    expect(await started.exit).toEqual({ code: 130, signal: null });
    expect(started.stderr()).toMatch(/stopped \(interrupted\)/);
  });

  it.skipIf(!hasTmux)(
    "on a terminal (tmux): the UI's Ctrl-C stops the turn and the session goes on, twice leaves; keel run's Ctrl-C ends it with 130",
    async () => {
      const w = keelWorld();
      const server = await startServer("anthropic", (request) =>
        lastPrompt(request) === "keep talking"
          ? { blocks: [text("Thinking out loud"), text("never")], hangAfterBlocks: 1 }
          : { blocks: [text("still here")] },
      );
      servers.push(server);
      const keel = new TmuxKeel("relaunch");
      try {
        keel.start({ project: w.project, home: w.home, server, program: [node20!, launcher] });
        await keel.waitFor(/\/help/, "the status line");
        await keel.prompt("keep talking");
        await keel.waitFor(/Thinking out loud/, "streamed text");
        keel.send("C-c");
        await keel.waitFor(/Interrupted\./, "the interruption");
        // The session goes on: the next prompt is answered, and nothing has armed "again to exit".
        await keel.prompt("are you there");
        await keel.waitFor(/still here/, "the next answer");
        expect(keel.screen()).not.toMatch(/Press Ctrl-C again|EXITED/);
        keel.send("C-c");
        await keel.waitFor(/Press Ctrl-C again to exit/, "the exit hint");
        keel.send("C-c");
        await keel.waitFor(/EXITED 0/, "the program to exit");

        // keel run on the terminal: Ctrl-C reaches the pinned Node through the foreground group.
        keel.start({
          project: w.project,
          home: w.home,
          server,
          program: [node20!, launcher, "run"],
          args: ["keep talking"],
        });
        await keel.waitFor(/Thinking out loud/, "keel run's streamed text");
        keel.send("C-c");
        const ended = await keel.waitFor(/EXITED \d+/, "keel run to end");
        expect(ended).toMatch(/keel: stopped \(interrupted\)/);
        expect(ended).toMatch(/EXITED 130/);
      } finally {
        keel.kill();
      }
    },
  );
});
