import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cutLine, readLineRange } from "./lineReader.ts";
import { createNewlineCounter } from "./newlineCounter.ts";

const dir = mkdtempSync(join(tmpdir(), "keel-lines-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Deterministic pseudo-random text: short, empty, long and multi-byte lines, LF and CRLF. */
function sampleText(seed: number, lines: number): string {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state;
  };
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const kind = next() % 10;
    const body =
      kind === 0
        ? ""
        : kind === 1
          ? "é€😀".repeat(next() % 900)
          : kind === 2
            ? "z".repeat(2100 + (next() % 50))
            : `line ${i} ${"ab".repeat(next() % 40)}`;
    out.push(body + (next() % 4 === 0 ? "\r\n" : "\n"));
  }
  return out.join("") + (seed % 2 === 0 ? "tail without newline" : "");
}

function reference(text: string, offset: number, limit: number, maxChars: number) {
  const lines = text.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  if (text.endsWith("\n")) lines.pop();
  const shown = lines.slice(offset - 1, offset - 1 + limit);
  return {
    lines: shown.map((line) => cutLine(line, maxChars).text),
    hasMore: offset - 1 + shown.length < lines.length,
    totalLines: lines.length,
  };
}

describe("newline counter", () => {
  it("counts the same with SIMD and with indexOf, at every length", () => {
    const simd = createNewlineCounter(4096);
    const plain = createNewlineCounter(4096, { forceFallback: true });
    for (let i = 0; i < 4096; i++) {
      const byte = (i * 7919) % 13 === 0 ? 10 : 65 + (i % 26);
      simd.buffer[i] = byte;
      plain.buffer[i] = byte;
    }
    for (const length of [0, 1, 15, 16, 63, 64, 65, 100, 1000, 4095, 4096]) {
      let expected = 0;
      for (let i = 0; i < length; i++) if (plain.buffer[i] === 10) expected++;
      expect(simd.count(length)).toBe(expected);
      expect(plain.count(length)).toBe(expected);
    }
  });
});

describe("readLineRange", () => {
  const cases = [
    { seed: 1, lines: 300 },
    { seed: 2, lines: 300 },
  ];
  for (const { seed, lines } of cases) {
    const text = sampleText(seed, lines);
    const utf8Path = join(dir, `s${seed}.txt`);
    writeFileSync(utf8Path, text);
    const le = join(dir, `s${seed}.le.txt`);
    writeFileSync(le, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]));
    const be = join(dir, `s${seed}.be.txt`);
    writeFileSync(be, Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, "utf16le").swap16()]));
    const files = [
      { path: utf8Path, encoding: "utf8" as const, skipBytes: 0 },
      { path: le, encoding: "utf16le" as const, skipBytes: 2 },
      { path: be, encoding: "utf16be" as const, skipBytes: 2 },
    ];
    for (const { path, encoding, skipBytes } of files) {
      for (const chunkSize of encoding === "utf8" ? [64, 1000, 1 << 20] : [250, 1 << 20]) {
        for (const forceFallback of encoding === "utf8" ? [false, true] : [false]) {
          it(`matches a plain split: seed ${seed}, ${encoding}, chunks of ${chunkSize}${forceFallback ? ", indexOf counter" : ""}`, async () => {
            for (const [offset, limit] of [
              [1, 2000],
              [1, 5],
              [37, 20],
              [150, 151],
              [299, 5],
              [300, 1],
              [301, 3],
              [400, 3],
            ] as const) {
              const expected = reference(text, offset, limit, 2000);
              const got = await readLineRange(path, {
                offset,
                limit,
                maxLineChars: 2000,
                encoding,
                skipBytes,
                chunkSize,
                forceFallback,
              });
              expect(got.lines).toEqual(expected.lines);
              expect(got.hasMore).toBe(expected.hasMore);
              if (!got.hasMore) expect(got.totalLines).toBe(expected.totalLines);
            }
          });
        }
      }
    }
  }

  it("keeps at most a line's cut prefix of a huge single line", async () => {
    const path = join(dir, "one-line.txt");
    writeFileSync(path, `${"q".repeat(3 << 20)}\nnext\n`);
    const got = await readLineRange(path, {
      offset: 1,
      limit: 2,
      maxLineChars: 10,
      encoding: "utf8",
      skipBytes: 0,
      chunkSize: 4096,
    });
    expect(got.lines).toEqual(["qqqqqqqqqq… [line cut at 10 characters]", "next"]);
    expect(got.cutLines).toBe(1);
  });

  it("stops at an abort", async () => {
    const path = join(dir, "abort.txt");
    writeFileSync(path, "a\n".repeat(1000));
    const controller = new AbortController();
    controller.abort();
    await expect(
      readLineRange(path, {
        offset: 1,
        limit: 5,
        maxLineChars: 10,
        encoding: "utf8",
        skipBytes: 0,
        signal: controller.signal,
      }),
    ).rejects.toThrow();
  });
});
