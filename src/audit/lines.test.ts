// Reading a file's lines in small chunks, from either end, gives the lines a whole-file split gives,
// with over-long lines reported (as undefined) instead of kept.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { linesBackward, linesForward } from "./lines.ts";

const dir = mkdtempSync(join(tmpdir(), "keel-lines-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function file(text: string): string {
  const path = join(dir, `f${++files}`);
  writeFileSync(path, text);
  return path;
}

const expected = (text: string) => text.split("\n").filter((line) => line !== "");

const TEXTS: Array<[string, string]> = [
  ["empty", ""],
  ["one line, no newline", "abc"],
  ["one line with newline", "abc\n"],
  ["blank lines between", "a\n\n\nbb\n"],
  ["lines longer than a chunk", "0123456789abcdef\nxy\n0123456789abcdef0123456789\n"],
  ["multi-byte characters across chunk edges", "äöü€😀\nß€€€€\n😀😀😀😀😀😀\n"],
  ["starts with a newline", "\nfirst\nsecond"],
];

describe("linesForward and linesBackward", () => {
  it.each(TEXTS)("%s: every chunk size gives the whole-file split", (_name, text) => {
    const path = file(text);
    for (const chunkBytes of [1, 2, 3, 5, 7, 64 * 1024]) {
      expect([...linesForward(path, { chunkBytes })]).toEqual(expected(text));
      expect([...linesBackward(path, { chunkBytes })]).toEqual(expected(text).reverse());
    }
  });

  it("reports a line over the bound as undefined, and reads on after it", () => {
    const text = `short\n${"x".repeat(50)}\nafter\n${"y".repeat(50)}`;
    const path = file(text);
    for (const chunkBytes of [3, 8, 1024]) {
      expect([...linesForward(path, { chunkBytes, maxLineBytes: 20 })]).toEqual([
        "short",
        undefined,
        "after",
        undefined,
      ]);
      expect([...linesBackward(path, { chunkBytes, maxLineBytes: 20 })]).toEqual([
        undefined,
        "after",
        undefined,
        "short",
      ]);
    }
  });

  it("reads nothing from a file that is gone", () => {
    expect([...linesForward(join(dir, "missing"))]).toEqual([]);
    expect([...linesBackward(join(dir, "missing"))]).toEqual([]);
  });
});
