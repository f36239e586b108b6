import { describe, expect, it } from "vitest";
import { globsAsIgnoreFile } from "./ignoreFile.ts";
import { effectiveLimit, paginationNote } from "./pagination.ts";
import { exclusionArgs, splitGlobParameter } from "./searchArgs.ts";

describe("splitGlobParameter", () => {
  it.each([
    ["*.ts", ["*.ts"]],
    ["*.ts *.tsx", ["*.ts", "*.tsx"]],
    ["*.ts,*.tsx", ["*.ts", "*.tsx"]],
    ["*.ts, *.tsx", ["*.ts", "*.tsx"]],
    ["*.{ts,tsx}", ["*.{ts,tsx}"]],
    ["src/**/*.{ts,tsx},!*.test.ts", ["src/**/*.{ts,tsx}", "!*.test.ts"]],
    ["  ", []],
  ])("%j -> %j", (glob, expected) => {
    expect(splitGlobParameter(glob)).toEqual(expected);
  });
});

describe("exclusionArgs", () => {
  it("skips every VCS folder and puts deny globs last, case-insensitive", () => {
    const args = exclusionArgs(["/secret/**", "*.pem"]);
    for (const folder of [".git", ".svn", ".hg", ".bzr", ".jj", ".sl"])
      expect(args).toContain(`--glob=!${folder}`);
    expect(args.slice(-2)).toEqual(["--iglob=!/secret/**", "--iglob=!*.pem"]);
  });
});

describe("pagination", () => {
  it.each([
    [undefined, 250],
    [0, undefined],
    [10, 10],
  ])("head_limit %j -> limit %j", (headLimit, expected) => {
    expect(effectiveLimit(headLimit)).toBe(expected);
  });

  it.each([
    [{ offset: 0, shown: 5, total: 5 }, undefined],
    [{ offset: 0, shown: 5, total: 12 }, "[Showing files 1-5 of 12. Use offset=5 to see more.]"],
    [{ offset: 5, shown: 5, total: 12 }, "[Showing files 6-10 of 12. Use offset=10 to see more.]"],
    [{ offset: 10, shown: 2, total: 12 }, "[Showing files 11-12 of 12.]"],
    [
      { offset: 20, shown: 0, total: 12 },
      "[offset=20 is past the end: there are 12 files in all. Use a smaller offset.]",
    ],
  ])("%j -> %j", (window, expected) => {
    expect(paginationNote(window, "files")).toBe(expected);
  });
});

describe("globsAsIgnoreFile", () => {
  it.each([
    [["*.ts"], "*\n!*/\n!*.ts\n"],
    [["*.ts", "!*.test.ts"], "*\n!*/\n!*.ts\n*.test.ts\n"],
    [["!dist"], "dist\n"],
    [["/a b  "], "*\n!*/\n!/a b\\ \\ \n"],
  ])("%j", (globs, expected) => {
    expect(globsAsIgnoreFile(globs)).toBe(expected);
  });
});
