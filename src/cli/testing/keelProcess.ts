// Test helper: `keel` as a real child process (from source, on this Node) in a temp project and home,
// against the scripted model servers, with optional stdin. A world lasts one test (keelWorld) or one
// file (suiteKeelWorld, removed by its caller): none is left in the temp folder.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { onTestFinished } from "vitest";
import { TEST_KEY } from "../../agent/testing/harness.ts";

export const ENTRY = join(import.meta.dirname, "..", "entry.ts");

export interface KeelWorld {
  root: string;
  project: string;
  home: string;
  env: NodeJS.ProcessEnv;
}

export interface KeelResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * A temporary project and home for the running test (call it in the test or a beforeEach), removed when
 * the test has finished: after its afterEach hooks, which end what the test started in it.
 */
export function keelWorld(): KeelWorld {
  let world: KeelWorld | undefined;
  try {
    onTestFinished(() => {
      if (world) removeWorld(world);
    });
  } catch {
    throw new Error(
      "keelWorld() belongs to one test: call it in a test or a beforeEach, or use suiteKeelWorld() in a beforeAll and removeWorld() in the afterAll",
    );
  }
  world = makeWorld();
  return world;
}

/** A world the tests of a file share (made in a beforeAll): its caller removes it with removeWorld. */
export function suiteKeelWorld(): KeelWorld {
  return makeWorld();
}

function makeWorld(): KeelWorld {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "keel-cli-")));
  const project = join(root, "project");
  const home = join(root, "home");
  mkdirSync(project);
  mkdirSync(home);
  return {
    root,
    project,
    home,
    env: {
      PATH: process.env.PATH,
      KEEL_DECISION_SERVER: "off",
      HOME: home,
      KEEL_HOME: home,
      KEEL_MANAGED_SETTINGS: join(root, "no-managed-settings.json"),
      ANTHROPIC_API_KEY: TEST_KEY,
    },
  };
}

/** Removes a world and everything its processes left in it (retried: one may still be writing as it ends). */
export function removeWorld(world: KeelWorld): void {
  rmSync(world.root, { recursive: true, force: true, maxRetries: 5 });
}

/** Runs `keel args` in the world's project; `stdin` is written then closed (else stdin is empty). */
export function runKeel(args: readonly string[], world: KeelWorld, stdin?: string): Promise<KeelResult> {
  return runScript(ENTRY, args, {
    cwd: world.project,
    env: world.env,
    ...(stdin === undefined ? {} : { stdin }),
  });
}

/**
 * Runs `script args` on this Node (the source entry, or bin/keel.js as users start it). `stdin` is written
 * then closed (else stdin is empty); with `killAfterMs`, a process still running then is killed (SIGKILL).
 */
export function runScript(
  script: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; stdin?: string; killAfterMs?: number },
): Promise<KeelResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
      ...(options.killAfterMs === undefined ? {} : { timeout: options.killAfterMs, killSignal: "SIGKILL" }),
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    // A command may exit before reading all of a large stdin.
    child.stdin.on("error", () => {});
    child.stdin.end(options.stdin ?? "");
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

export function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .trim()
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A running `keel tool --jsonl` process: one call at a time, each answered by its result line. */
export interface JsonlSession {
  pid: number;
  call(name: string, input: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Closes stdin and waits for the exit. */
  close(): Promise<KeelResult>;
}

/** Starts `keel tool --jsonl ...args` in the world's project, as a separate process, kept open between calls. */
export function startJsonlSession(
  world: KeelWorld,
  args: readonly string[],
  spawnOptions: { uid?: number; gid?: number } = {},
): JsonlSession {
  const child = spawn(process.execPath, [ENTRY, "tool", "--jsonl", ...args], {
    cwd: world.project,
    env: world.env,
    stdio: ["pipe", "pipe", "pipe"],
    ...spawnOptions,
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const exited = new Promise<KeelResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout: "", stderr }));
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let calls = 0;
  return {
    pid: child.pid as number,
    async call(name, input) {
      child.stdin.write(`${JSON.stringify({ name, input, id: `call-${++calls}` })}\n`);
      const next = await lines.next();
      if (next.done) throw new Error(`keel exited before answering ${name}: ${stderr}`);
      return JSON.parse(next.value) as Record<string, unknown>;
    },
    close() {
      child.stdin.end();
      return exited;
    },
  };
}
