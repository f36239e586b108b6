// The cross-process lock with real processes holding it: another process waits a bounded time, an
// abort ends the wait, a holder killed with SIGKILL leaves a lock that is taken over once stale, and a
// released lock leaves nothing behind.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ToolError } from "../../tool/errors.ts";
import { lockPathFor } from "./keelNames.ts";
import { acquireProcessLock, LOCK_STALE_MS } from "./processLock.ts";

const dir = mkdtempSync(join(tmpdir(), "keel-plock-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** A separate Node process that takes the lock of `file`, says so, and holds it until killed. */
async function holdInChild(file: string): Promise<ChildProcess> {
  const moduleUrl = new URL("./processLock.ts", import.meta.url).href;
  const script = `
    import { acquireProcessLock } from ${JSON.stringify(moduleUrl)};
    await acquireProcessLock(${JSON.stringify(file)});
    process.stdout.write("held\\n");
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("held")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`holder exited early (${code}): ${stderr}`)));
  });
  return child;
}

async function killHard(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.on("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

function newFile(name: string): string {
  const file = join(dir, name);
  writeFileSync(file, "x");
  return file;
}

describe("acquireProcessLock", () => {
  it("is released without a trace, and can be taken again at once", async () => {
    const file = newFile("plain.txt");
    const first = await acquireProcessLock(file);
    expect(statSync(lockPathFor(file)).isDirectory()).toBe(true);
    await first.release();
    expect(existsSync(lockPathFor(file))).toBe(false);
    const second = await acquireProcessLock(file);
    await second.release();
    expect(existsSync(lockPathFor(file))).toBe(false);
  });

  it("another live process's lock: the wait is bounded and ends in file_busy", async () => {
    const file = newFile("busy.txt");
    const holder = await holdInChild(file);
    const error = await acquireProcessLock(file, { waitMs: 300 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe("file_busy");
    expect((error as ToolError).message).toMatch(/Another Keel process .* read the file again, then retry/);
    await killHard(holder);
  });

  it("an abort ends the wait with the caller's reason", async () => {
    const file = newFile("aborted.txt");
    const holder = await holdInChild(file);
    const controller = new AbortController();
    const waiting = acquireProcessLock(file, { signal: controller.signal });
    controller.abort(new Error("stop waiting"));
    await expect(waiting).rejects.toThrow("stop waiting");
    await killHard(holder);
  });

  it("a holder killed with SIGKILL leaves its lock; once stale it is taken over", async () => {
    const file = newFile("killed.txt");
    const holder = await holdInChild(file);
    await killHard(holder);
    expect(existsSync(lockPathFor(file))).toBe(true);
    // Not yet stale: still respected.
    await expect(acquireProcessLock(file, { waitMs: 200 })).rejects.toMatchObject({ code: "file_busy" });
    // The time a dead holder's lock takes to go stale, passed by moving its last refresh back.
    const past = new Date(Date.now() - LOCK_STALE_MS - 1_000);
    utimesSync(lockPathFor(file), past, past);
    const taken = await acquireProcessLock(file, { waitMs: 200 });
    await taken.release();
    expect(existsSync(lockPathFor(file))).toBe(false);
  });
});
