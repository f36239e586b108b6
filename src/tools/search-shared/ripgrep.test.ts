import { execFileSync } from "node:child_process";
import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolError } from "../../tool/errors.ts";
import {
  findRipgrep,
  RIPGREP_MISSING_MESSAGE,
  type RipgrepRun,
  ripgrepPath,
  runRipgrep,
  throwIfRipgrepFailed,
} from "./ripgrep.ts";
import { makeTempDir, removeDir, writeTree } from "./testing.ts";

let dir: string;

beforeAll(async () => {
  dir = await makeTempDir();
  await writeTree(dir, { "a.txt": "alpha\nbeta\n" });
});

afterAll(async () => {
  await removeDir(dir);
});

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntilGone(pid: number): Promise<boolean> {
  for (let i = 0; i < 200 && processAlive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  return !processAlive(pid);
}

describe("findRipgrep", () => {
  it("prefers the binary bundled in @vscode/ripgrep", async () => {
    const path = await ripgrepPath();
    expect(path).toMatch(/@vscode[/\\]ripgrep/);
    expect(execFileSync(path, ["--version"], { encoding: "utf8" })).toMatch(/^ripgrep \d+/);
  });

  it("falls back to rg on PATH when the bundled binary is missing", async () => {
    const fakeBin = join(dir, "bin");
    await writeTree(dir, { "bin/rg": "#!/bin/sh\nexit 0\n" });
    await chmod(join(fakeBin, "rg"), 0o755);
    const found = await findRipgrep({ bundled: async () => undefined, pathEnv: `/nonexistent:${fakeBin}` });
    expect(found).toBe(join(fakeBin, "rg"));
  });

  it("fails with a message saying how to get ripgrep when there is none", async () => {
    const error = await findRipgrep({ bundled: async () => undefined, pathEnv: "/nonexistent" }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(ToolError);
    expect(error.code).toBe("ripgrep_missing");
    expect(error.message).toBe(RIPGREP_MISSING_MESSAGE);
    expect(error.message).toMatch(/@vscode\/ripgrep/);
    expect(error.message).toMatch(/PATH/);
  });
});

describe("runRipgrep", () => {
  it("returns output and exit code 0 on a match, 1 on none", async () => {
    const signal = new AbortController().signal;
    const hit = await runRipgrep(["--no-config", "-e", "beta", "."], { cwd: dir, signal });
    expect(hit.exitCode).toBe(0);
    expect(hit.stdout.toString()).toContain("beta");
    const miss = await runRipgrep(["--no-config", "-e", "gamma", "."], { cwd: dir, signal });
    expect(miss.exitCode).toBe(1);
    expect(miss.outputBytes).toBe(0);
  });

  it("streams stdout to onStdout instead of collecting it", async () => {
    const chunks: Buffer[] = [];
    const run = await runRipgrep(["--no-config", "--files", "."], {
      cwd: dir,
      signal: new AbortController().signal,
      onStdout: (chunk) => chunks.push(chunk),
    });
    expect(run.stdout.length).toBe(0);
    expect(Buffer.concat(chunks).toString()).toContain("a.txt");
  });

  it("kills rg when aborted while it runs", async () => {
    // rg blocks reading a FIFO that nobody writes to: a search that never ends on its own.
    const fifo = join(dir, "never.fifo");
    execFileSync("mkfifo", [fifo]);
    const controller = new AbortController();
    let pid = 0;
    const running = runRipgrep(["--no-config", "-e", "x", "./never.fifo"], {
      cwd: dir,
      signal: controller.signal,
      onSpawn: (childPid) => {
        pid = childPid;
        setTimeout(() => controller.abort(), 50);
      },
    });
    const error = await running.catch((e) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect(error.code).toBe("aborted");
    expect(pid).toBeGreaterThan(0);
    expect(await waitUntilGone(pid)).toBe(true);
  });

  it("kills rg on timeout with a message that says what to do", async () => {
    const fifo = join(dir, "slow.fifo");
    execFileSync("mkfifo", [fifo]);
    let pid = 0;
    const error = await runRipgrep(["--no-config", "-e", "x", "./slow.fifo"], {
      cwd: dir,
      signal: new AbortController().signal,
      timeoutMs: 100,
      onSpawn: (childPid) => {
        pid = childPid;
      },
    }).catch((e) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect(error.code).toBe("timeout");
    expect(error.message).toMatch(/narrower path/);
    expect(await waitUntilGone(pid)).toBe(true);
  });

  it("refuses to start when already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await runRipgrep(["--files"], { cwd: dir, signal: controller.signal }).catch((e) => e);
    expect(error.code).toBe("aborted");
  });

  it("stops rg and marks the run capped when output passes the limit", async () => {
    await writeFile(join(dir, "big.txt"), "match\n".repeat(50_000));
    const run = await runRipgrep(["--no-config", "-e", "match", "./big.txt"], {
      cwd: dir,
      signal: new AbortController().signal,
      maxOutputBytes: 1_000,
    });
    expect(run.outputCapped).toBe(true);
    expect(run.stdout.length).toBeLessThan(300_000);
  });
});

describe("throwIfRipgrepFailed", () => {
  const failed = (stderr: string, outputBytes = 0): RipgrepRun => ({
    stdout: Buffer.alloc(0),
    stderr,
    exitCode: 2,
    outputBytes,
    outputCapped: false,
  });

  it.each([
    [
      "rg: regex parse error:\n    (?:()\n    ^\nerror: unclosed group",
      "invalid_input",
      /Invalid regular expression.*unclosed group/s,
    ],
    ["rg: unrecognized file type: nope", "invalid_input", /unrecognized file type: nope.*ripgrep file type/s],
    ["rg: error parsing glob '[': unclosed character class", "invalid_input", /Invalid glob/],
    ["rg: something else broke", "tool_failed", /ripgrep failed: something else broke/],
  ])("%s -> %s", (stderr, code, message) => {
    const error = (() => {
      try {
        throwIfRipgrepFailed(failed(stderr));
        return undefined;
      } catch (e) {
        return e as ToolError;
      }
    })();
    expect(error?.code).toBe(code);
    expect(error?.message).toMatch(message);
  });

  it("keeps partial results when some files could not be read", () => {
    expect(() => throwIfRipgrepFailed(failed("rg: ./x: Permission denied (os error 13)", 10))).not.toThrow();
    expect(() => throwIfRipgrepFailed(failed("rg: ./x: Permission denied (os error 13)"))).not.toThrow();
  });

  it("does nothing for exit codes 0 and 1", () => {
    expect(() => throwIfRipgrepFailed({ ...failed("rg: regex parse error"), exitCode: 1 })).not.toThrow();
  });
});
