import { spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isAtomicTempName, writeFileAtomic } from "./atomicWrite.ts";
import { activeFileLocks, withFileLock } from "./fileLock.ts";

const dir = mkdtempSync(join(tmpdir(), "keel-atomic-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("writeFileAtomic", () => {
  it("replaces the content, keeps the mode, creates parent folders, leaves no temporary file", async () => {
    const path = join(dir, "a.sh");
    writeFileSync(path, "old");
    chmodSync(path, 0o700);
    await writeFileAtomic(path, Buffer.from("new"));
    expect(readFileSync(path, "utf8")).toBe("new");
    expect(statSync(path).mode & 0o777).toBe(0o700);
    await writeFileAtomic(join(dir, "x", "y", "z.txt"), Buffer.from("deep"));
    expect(readFileSync(join(dir, "x", "y", "z.txt"), "utf8")).toBe("deep");
    expect(readdirSync(dir).filter(isAtomicTempName)).toEqual([]);
  });

  it("writing through a symlink replaces the target and keeps the link", async () => {
    const target = join(dir, "target.txt");
    const link = join(dir, "link.txt");
    writeFileSync(target, "before");
    symlinkSync(target, link);
    await writeFileAtomic(link, Buffer.from("after"));
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, "utf8")).toBe("after");
  });

  it("an abort mid-write leaves the old file and removes the temporary one", async () => {
    const path = join(dir, "aborted.txt");
    writeFileSync(path, "original");
    const controller = new AbortController();
    const write = writeFileAtomic(path, Buffer.alloc(4 << 20, 97), {
      chunkSize: 1 << 20,
      signal: controller.signal,
      onChunkWritten: () => controller.abort(),
    });
    await expect(write).rejects.toThrow();
    expect(readFileSync(path, "utf8")).toBe("original");
    expect(readdirSync(dir).filter(isAtomicTempName)).toEqual([]);
  });

  it("a process killed in the middle of writing a big file leaves the old file intact", async () => {
    const path = join(dir, "big.txt");
    writeFileSync(path, "the old content\n");
    const moduleUrl = new URL("./atomicWrite.ts", import.meta.url).href;
    // The child writes 64 MB in 1 MB chunks and says when the first chunk is on disk; then it is killed.
    const script = `
      import { writeFileAtomic } from ${JSON.stringify(moduleUrl)};
      await writeFileAtomic(${JSON.stringify(path)}, Buffer.alloc(64 << 20, 120), {
        chunkSize: 1 << 20,
        onChunkWritten: async (written) => {
          if (written === 1 << 20) {
            process.stdout.write("started\\n");
            await new Promise(() => setInterval(() => {}, 1000));
          }
        },
      });
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("started")) resolve();
      });
      child.on("exit", (code) => reject(new Error(`child exited early (${code}): ${stderr}`)));
    });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    expect(readFileSync(path, "utf8")).toBe("the old content\n");
    const leftovers = readdirSync(dir).filter(isAtomicTempName);
    expect(leftovers).toHaveLength(1);
    expect(statSync(join(dir, leftovers[0] as string)).size).toBeGreaterThanOrEqual(1 << 20);
  });
});

describe("writeFileAtomic with the version it replaces (the re-check before the rename)", () => {
  const big = Buffer.alloc(2 << 20, 98);
  interface Row {
    what: string;
    before: string | undefined;
    expect: "loaded" | "absent";
    /** What another program does while the new content is being written. */
    meanwhile?: (path: string) => void;
    lands: boolean;
  }
  const rows: Row[] = [
    { what: "unchanged meanwhile: lands", before: "old", expect: "loaded", lands: true },
    {
      what: "rewritten meanwhile (another program's rename): stale",
      before: "old",
      expect: "loaded",
      meanwhile: (path) => {
        writeFileSync(`${path}.other`, "theirs");
        renameSync(`${path}.other`, path);
      },
      lands: false,
    },
    {
      what: "written in place meanwhile: stale",
      before: "old",
      expect: "loaded",
      meanwhile: (path) => writeFileSync(path, "theirs, longer"),
      lands: false,
    },
    {
      what: "removed meanwhile: stale",
      before: "old",
      expect: "loaded",
      meanwhile: (path) => unlinkSync(path),
      lands: false,
    },
    { what: "a new file, still absent: lands", before: undefined, expect: "absent", lands: true },
    {
      what: "a new file that another program created meanwhile: stale, theirs kept",
      before: undefined,
      expect: "absent",
      meanwhile: (path) => writeFileSync(path, "theirs"),
      lands: false,
    },
    {
      what: "a new file that is already there: refused before writing",
      before: "theirs",
      expect: "absent",
      lands: false,
    },
  ];
  it.each(rows)("$what", async (row) => {
    const folder = mkdtempSync(join(dir, "versioned-"));
    const path = join(folder, "file.txt");
    if (row.before !== undefined) writeFileSync(path, row.before);
    const expected = row.expect === "absent" ? "absent" : statSync(path);
    let after: string | undefined;
    const write = writeFileAtomic(path, big, {
      expect: expected,
      chunkSize: 1 << 20,
      onChunkWritten: (written) => {
        if (written === 1 << 20) row.meanwhile?.(path);
      },
    });
    if (row.lands) {
      await write;
      after = readFileSync(path, "utf8");
      expect(after).toBe(big.toString());
    } else {
      const error = await write.catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: "changed_since_read" });
      expect((error as Error).message).toMatch(/stale; nothing was written\. Read the file again/);
      expect(existsSync(path) ? readFileSync(path, "utf8") : undefined).not.toBe(big.toString());
    }
    expect(readdirSync(folder).filter(isAtomicTempName)).toEqual([]);
  });
});

describe("withFileLock", () => {
  it("runs tasks on one file one after another, in order, and releases the lock", async () => {
    const order: string[] = [];
    const path = join(dir, "locked.txt");
    const slow = withFileLock(path, async () => {
      order.push("first:start");
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push("first:end");
    });
    const fast = withFileLock(path, async () => {
      order.push("second");
    });
    const failing = withFileLock(path, async () => {
      throw new Error("boom");
    });
    const after = withFileLock(path, async () => order.push("after failure"));
    await Promise.allSettled([slow, fast, failing, after]);
    expect(order).toEqual(["first:start", "first:end", "second", "after failure"]);
    await expect(failing).rejects.toThrow("boom");
    expect(activeFileLocks()).toBe(0);
  });
});
