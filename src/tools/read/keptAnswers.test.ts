// Read's kept answers: a re-read of the same bytes gives the same answer; a changed file is always seen
// (even one rewritten at the same size with its mtime put back); the bounds hold.
import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "../shared/readState.ts";
import { keptAnswersSize, MAX_ANSWERS, MAX_FILE_BYTES, MAX_WEIGHT } from "./keptAnswers.ts";
import { readTextFile } from "./readText.ts";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "keel-kept-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const read = (path: string, offset = 1, limit = 2000) =>
  readTextFile(path, statSync(path), { offset, limit });
const contentOf = (output: Awaited<ReturnType<typeof read>>["output"]) =>
  output.type === "text" ? output.file.content : output.type;

describe("kept answers", () => {
  it("hands a re-read of the same bytes the same answer, and its own range to another range", async () => {
    const path = join(dir, "same.txt");
    writeFileSync(path, "one\ntwo\nthree\n");
    const first = await read(path);
    const again = await read(path);
    expect(again.output).toBe(first.output);
    expect(again.record.hash).toBe(sha256(Buffer.from("one\ntwo\nthree\n")));
    const middle = await read(path, 2, 1);
    expect(contentOf(middle.output)).toBe("two");
    expect(middle.record.isPartialView).toBe(true);
    expect(contentOf((await read(path)).output)).toBe("one\ntwo\nthree");
  });

  it.each([
    ["same size, mtime put back", "alpha\nbeta\n", "alpha\nBETA\n"],
    ["shorter", "alpha\nbeta\n", "alpha\n"],
    ["longer", "alpha\n", "alpha\nbeta\ngamma\n"],
    ["same text, other encoding (BOM added)", "alpha\n", "\uFEFFalpha\n"],
  ])("sees a changed file: %s", async (_name, before, after) => {
    const path = join(dir, `changed-${before.length}-${after.length}.txt`);
    writeFileSync(path, before);
    const { mtime } = statSync(path);
    const first = await read(path);
    writeFileSync(path, after);
    utimesSync(path, mtime, mtime);
    const second = await read(path);
    expect(second.output).not.toBe(first.output);
    expect(second.record.hash).toBe(sha256(Buffer.from(after)));
    expect(second.record.content).toBe(after.replace(/^\uFEFF/, ""));
  });

  it("refuses a text file that became binary", async () => {
    const path = join(dir, "turns-binary.txt");
    writeFileSync(path, "text\n");
    await read(path);
    writeFileSync(path, Buffer.from([0, 1, 2, 0, 3]));
    await expect(read(path)).rejects.toThrow(/binary file/);
  });

  it("answers are frozen, so no caller can change what the next one is handed", async () => {
    const path = join(dir, "frozen.txt");
    writeFileSync(path, "x\n");
    const { output } = await read(path);
    expect(Object.isFrozen(output)).toBe(true);
    if (output.type === "text") expect(Object.isFrozen(output.file)).toBe(true);
  });

  it("keeps at most MAX_ANSWERS answers and MAX_WEIGHT in all, and no file over MAX_FILE_BYTES", async () => {
    for (let i = 0; i < MAX_ANSWERS + 8; i++) {
      const path = join(dir, `many-${i}.txt`);
      writeFileSync(path, `file ${i}\n`);
      await read(path);
    }
    expect(keptAnswersSize().answers).toBe(MAX_ANSWERS);
    const big = join(dir, "big.txt");
    writeFileSync(big, `${"b".repeat(99)}\n`.repeat(MAX_FILE_BYTES / 100 + 1));
    const before = keptAnswersSize();
    const first = await read(big);
    expect(keptAnswersSize()).toEqual(before);
    expect((await read(big)).output).not.toBe(first.output);
    // Files just under the size bound: the weight bound drops the oldest before the count bound does.
    const line = `${"w".repeat(99)}\n`;
    for (let i = 0; i < MAX_WEIGHT / (4 * MAX_FILE_BYTES) + 4; i++) {
      const path = join(dir, `heavy-${i}.txt`);
      writeFileSync(path, `${i}`.padEnd(100, "-") + line.repeat(MAX_FILE_BYTES / 100 - 2));
      await read(path);
      expect(keptAnswersSize().weight).toBeLessThanOrEqual(MAX_WEIGHT);
    }
    expect(keptAnswersSize().answers).toBeLessThan(MAX_ANSWERS);
  });
});
