import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openAnonymousFile, saveAnonymousFile } from "./anonymousFile.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "keel-anon-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe.runIf(process.platform === "linux")("nameless files", () => {
  it("are written and read through the descriptor, with no name in the folder", () => {
    const fd = openAnonymousFile(dir);
    expect(fd).toBeTypeOf("number");
    if (fd === undefined) return;
    try {
      writeSync(fd, "hello\n");
      expect(readdirSync(dir)).toEqual([]);
      const buffer = Buffer.alloc(16);
      expect(buffer.toString("utf8", 0, readSync(fd, buffer, 0, 16, 0))).toBe("hello\n");
    } finally {
      closeSync(fd);
    }
  });

  it("are given a name by copying, never over an existing file", () => {
    const fd = openAnonymousFile(dir);
    if (fd === undefined) throw new Error("no O_TMPFILE here");
    try {
      writeSync(fd, "x".repeat(100_000));
      const path = join(dir, "saved.log");
      saveAnonymousFile(fd, path);
      expect(readFileSync(path, "utf8")).toBe("x".repeat(100_000));
      expect(() => saveAnonymousFile(fd, path)).toThrow(/EEXIST/);
    } finally {
      closeSync(fd);
    }
  });

  it("are not made in a folder that does not exist, and the folder is asked again later", () => {
    const missing = join(dir, "later");
    expect(openAnonymousFile(missing)).toBeUndefined();
    mkdirSync(missing);
    const fd = openAnonymousFile(missing);
    expect(fd).toBeTypeOf("number");
    if (fd !== undefined) closeSync(fd);
  });
});
