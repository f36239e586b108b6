// However a process that owns children ends (process.exit, an uncaught error, its work done), the
// children it still owns end with it, even ones that ignore SIGTERM; released ones are left running.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isRunning, waitUntil } from "./testing/processes.ts";

const OWNER = join(import.meta.dirname, "testing", "ownerProcess.ts");
const leftovers: number[] = [];
afterEach(() => {
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
});

async function runOwner(how: string): Promise<{ code: number | null; group: number; single: number }> {
  const child = spawn(process.execPath, [OWNER, how], { stdio: ["ignore", "pipe", "ignore"] });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const { group, single } = JSON.parse(stdout) as { group: number; single: number };
  leftovers.push(group, single);
  return { code, group, single };
}

describe("owned processes", () => {
  it.each([
    ["exit", 3],
    ["throw", 1],
    ["done", 0],
  ])("end with their owner when it ends by %s (exit %d)", async (how, code) => {
    const owner = await runOwner(how);
    expect(owner.code).toBe(code);
    await waitUntil(
      () => !isRunning(owner.group) && !isRunning(owner.single),
      "the owned children to end",
      5_000,
    );
  });

  it("released ones keep running", async () => {
    const owner = await runOwner("released");
    expect(owner.code).toBe(0);
    expect(isRunning(owner.group)).toBe(true);
    expect(isRunning(owner.single)).toBe(true);
  });
});
