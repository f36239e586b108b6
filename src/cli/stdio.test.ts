// The standard streams as descriptors, in real child processes: pipes, files, /dev/null and a
// pseudo-terminal (util-linux `script`), a pipe made non-blocking and left full, a reader that goes away.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let dir: string;
const moduleUrl = (name: string) => JSON.stringify(pathToFileURL(join(import.meta.dirname, name)).href);

/** A script file in the test folder (children run it with Node's own TypeScript support). */
function script(name: string, body: string): string {
  const file = join(dir, name);
  writeFileSync(file, body);
  return file;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "keel-stdio-"));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("isTerminal", () => {
  const probe = () =>
    script(
      "probe.mjs",
      `import { isTerminal } from ${moduleUrl("stdio.ts")};\n` +
        'process.stderr.write("terminal:" + isTerminal(0) + "," + isTerminal(1) + "\\n");\n',
    );

  it("says no for pipes", () => {
    const result = spawnSync(process.execPath, [probe()], { encoding: "utf8" });
    expect(result.stderr).toContain("terminal:false,false");
  });

  it("says no for a file and for /dev/null (a character device that is no terminal)", () => {
    const input = openSync("/dev/null", "r");
    const output = openSync(join(dir, "out.txt"), "w");
    try {
      const result = spawnSync(process.execPath, [probe()], {
        stdio: [input, output, "pipe"],
        encoding: "utf8",
      });
      expect(result.stderr).toContain("terminal:false,false");
    } finally {
      closeSync(input);
      closeSync(output);
    }
  });

  it("says yes for a pseudo-terminal", () => {
    const file = probe();
    const result = spawnSync("script", ["-qec", `'${process.execPath}' '${file}'`, "/dev/null"], {
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(result.stdout).toContain("terminal:true,true");
  });
});

describe("writeAllSync", () => {
  it("waits while a non-blocking pipe is full and loses nothing", async () => {
    const size = 4 * 1024 * 1024;
    // Building process.stdout makes a pipe on fd 1 non-blocking: a plain writeSync would fail with EAGAIN.
    const writer = script(
      "writer.mjs",
      `import { writeAllSync } from ${moduleUrl("stdio.ts")};\n` +
        `process.stdout;\nwriteAllSync(1, Buffer.alloc(${size}, 97));\n`,
    );
    const child = spawn(process.execPath, [writer], { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.pause();
    let received = 0;
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    setTimeout(() => {
      child.stdout.on("data", (chunk: Buffer) => {
        received += chunk.length;
      });
      child.stdout.resume();
    }, 300);
    const code = await new Promise((resolve) => child.once("close", resolve));
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(received).toBe(size);
  });
});

describe("writeOrStop", () => {
  it("ends the command quietly, with its exit code, when the reader went away", async () => {
    const writer = script(
      "stopper.mjs",
      `import { writeFileSync } from "node:fs";\nimport { writeOrStop } from ${moduleUrl("io.ts")};\n` +
        "process.exitCode = 3;\n" +
        "await new Promise((resolve) => setTimeout(resolve, 200));\n" +
        `for (let i = 0; i < 64; i++) writeOrStop(1, "x".repeat(65536));\n` +
        `writeFileSync(${JSON.stringify(join(dir, "after.txt"))}, "still running");\n`,
    );
    const child = spawn(process.execPath, [writer], { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const code = await new Promise((resolve) => child.once("close", resolve));
    expect(stderr).toBe("");
    expect(code).toBe(3);
    expect(() => readFileSync(join(dir, "after.txt"))).toThrow();
  });
});
