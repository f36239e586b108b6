import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cleanTerminalText, looksBinary, readLatestLines, summarizeOutputFile } from "./output.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "keel-output-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(content: string | Buffer): Promise<string> {
  const path = join(dir, `f-${Math.random().toString(36).slice(2)}`);
  await writeFile(path, content);
  return path;
}

describe("looksBinary", () => {
  it.each([
    ["plain text", Buffer.from("hello\nworld\n"), false],
    ["text with ANSI colours", Buffer.from("\x1b[31mred\x1b[0m and \x1b[1mbold\x1b[22m\n"), false],
    ["UTF-8 text", Buffer.from("héllo wörld — ünïcode ✓ 日本語\n"), false],
    ["tabs, CR and backspace", Buffer.from("a\tb\r\nprogress 10%\rprogress 20%\b\n"), false],
    ["a NUL byte", Buffer.from([0x68, 0x69, 0x00, 0x0a]), true],
    ["an ELF header", Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0]), true],
    ["random bytes", Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 131 + 7) % 256)), true],
    ["empty", Buffer.alloc(0), false],
  ])("%s", (_name, sample, expected) => {
    expect(looksBinary(sample)).toBe(expected);
  });
});

describe("cleanTerminalText", () => {
  it.each([
    ["colour codes", "\x1b[31mError\x1b[0m: \x1b[1;33mwarn\x1b[0m", "Error: warn"],
    ["cursor movement and erase", "a\x1b[2K\x1b[1Gb\x1b[?25l", "ab"],
    ["OSC hyperlinks", "\x1b]8;;https://x.example\x07link\x1b]8;;\x07", "link"],
    ["CRLF line ends", "one\r\ntwo\r\n", "one\ntwo\n"],
    ["carriage-return progress redraws", "10%\r50%\r100%\ndone\n", "100%\ndone\n"],
    ["plain text unchanged", "nothing to strip\n", "nothing to strip\n"],
  ])("strips %s", (_name, input, expected) => {
    expect(cleanTerminalText(input)).toBe(expected);
  });
});

describe("summarizeOutputFile", () => {
  it("returns small output whole, ANSI stripped", async () => {
    const path = await file("\x1b[32mok\x1b[0m\nline 2\n");
    const summary = await summarizeOutputFile(path);
    expect(summary).toEqual({ text: "ok\nline 2\n", totalBytes: 19, truncated: false, binary: false });
  });

  it("returns output of exactly the cap whole", async () => {
    const path = await file("x".repeat(30_000));
    const summary = await summarizeOutputFile(path, { maxChars: 30_000 });
    expect(summary.truncated).toBe(false);
    expect(summary.text.length).toBe(30_000);
  });

  it("caps long output to head and tail, saying how much was cut and where the rest is", async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${String(i).padStart(5, "0")}`);
    const path = await file(`${lines.join("\n")}\n`);
    const summary = await summarizeOutputFile(path, { maxChars: 30_000, savedPath: "/saved/full.log" });
    expect(summary.truncated).toBe(true);
    expect(summary.text.length).toBeLessThanOrEqual(30_000);
    expect(summary.text.startsWith("line 00000\nline 00001\n")).toBe(true);
    expect(summary.text.endsWith("line 19999\n")).toBe(true);
    expect(summary.text).not.toContain("line 10000\n");
    expect(summary.text).toMatch(/about [\d,]+ bytes cut/);
    expect(summary.text).toContain("/saved/full.log");
  });

  it("caps a very long single line too", async () => {
    const path = await file(`${"a".repeat(100_000)}END`);
    const summary = await summarizeOutputFile(path, { maxChars: 30_000 });
    expect(summary.text.length).toBeLessThanOrEqual(30_000);
    expect(summary.text.endsWith("aEND")).toBe(true);
  });

  it("summarizes binary output instead of showing it", async () => {
    const path = await file(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1, 2, 3]));
    const summary = await summarizeOutputFile(path, { savedPath: "/saved/bin.log" });
    expect(summary.binary).toBe(true);
    expect(summary.text).toBe("[binary output: 10 bytes; saved to /saved/bin.log]");
  });

  it("reads only the requested byte range", async () => {
    const path = await file("first\nsecond\nthird\n");
    const summary = await summarizeOutputFile(path, { range: { start: 6, end: 13 } });
    expect(summary.text).toBe("second\n");
    expect(summary.totalBytes).toBe(7);
  });
});

describe("readLatestLines", () => {
  it("gives the last non-empty lines, ANSI stripped", async () => {
    const path = await file("1\n2\n\x1b[1m3\x1b[0m\n\n4\n5\n6\n7\n");
    expect(await readLatestLines(path, 3)).toBe("5\n6\n7");
  });

  it("is empty for a file not written yet", async () => {
    expect(await readLatestLines(join(dir, "missing"))).toBe("");
  });
});
