import { describe, expect, it } from "vitest";
import {
  ContentCollector,
  countPage,
  fileContentPage,
  folderContentPage,
  parseCountOutput,
} from "./parseOutput.ts";

// rg --heading --null --line-number -C1 output as its threads might print it: files out of order, a
// blank line between files, "--" between one file's groups, a CRLF line, a path with a colon in it.
const OUTPUT = [
  "./b.ts\u00001-before",
  "2:match b1",
  "3-after",
  "--",
  "9:match b2\r",
  "",
  "./a:odd.ts\u00004:match a",
  "",
  "./c.ts\u000010:match c",
  "",
].join("\n");

const page = (offset: number, limit: number | undefined, showLineNumbers = true) =>
  folderContentPage(OUTPUT, "/root", { showLineNumbers, hasContext: true, offset, limit });

describe("folderContentPage", () => {
  it("orders files by path, keeps each file's groups, and puts -- between files", () => {
    expect(page(0, undefined)).toEqual({
      lines: [
        "/root/a:odd.ts:4:match a",
        "--",
        "/root/b.ts-1-before",
        "/root/b.ts:2:match b1",
        "/root/b.ts-3-after",
        "--",
        "/root/b.ts:9:match b2",
        "--",
        "/root/c.ts:10:match c",
      ],
      totalLines: 9,
      files: 3,
    });
  });

  it("formats only the page asked for, counting separators as lines", () => {
    expect(page(3, 3).lines).toEqual(["/root/b.ts:2:match b1", "/root/b.ts-3-after", "--"]);
    expect(page(8, 5).lines).toEqual(["/root/c.ts:10:match c"]);
    expect(page(9, 5)).toEqual({ lines: [], totalLines: 9, files: 3 });
  });

  it("drops line numbers but keeps the match/context marker with -n false", () => {
    expect(page(0, 4, false).lines).toEqual([
      "/root/a:odd.ts:match a",
      "--",
      "/root/b.ts-before",
      "/root/b.ts:match b1",
    ]);
  });

  it("gives the same page whatever the chunk boundaries, multi-byte characters and separators included", () => {
    const text = `${OUTPUT.replace("match a", "match \u00e9\u4e2d a")}`;
    const whole = folderContentPage(text, "/root", {
      showLineNumbers: true,
      hasContext: true,
      offset: 0,
      limit: undefined,
    });
    const bytes = Buffer.from(text);
    for (const size of [1, 2, 3, 5, 8, 13]) {
      const collector = new ContentCollector();
      for (let start = 0; start < bytes.length; start += size)
        collector.push(bytes.subarray(start, start + size));
      collector.finish();
      expect(
        collector.page("/root", { showLineNumbers: true, hasContext: true, offset: 0, limit: undefined }),
      ).toEqual(whole);
    }
    expect(whole.lines[0]).toBe("/root/a:odd.ts:4:match \u00e9\u4e2d a");
  });

  it("takes output that does not end with a newline", () => {
    const result = folderContentPage("./a\u00001:x\n\n./b\u00002:y", "/r", {
      showLineNumbers: true,
      hasContext: false,
      offset: 0,
      limit: undefined,
    });
    expect(result.lines).toEqual(["/r/a:1:x", "/r/b:2:y"]);
  });

  it("puts no separators between files without context", () => {
    const text = "./z.ts\u00001:z\n\n./y.ts\u00002:y\n";
    const result = folderContentPage(text, "/r", {
      showLineNumbers: true,
      hasContext: false,
      offset: 0,
      limit: undefined,
    });
    expect(result.lines).toEqual(["/r/y.ts:2:y", "/r/z.ts:1:z"]);
  });
});

describe("fileContentPage", () => {
  it("pages one file's lines as rg printed them", () => {
    expect(fileContentPage("1:a\n2:b\r\n3:c\n", 1, 1)).toEqual({ lines: ["2:b"], totalLines: 3, files: 1 });
    expect(fileContentPage("", 0, 10)).toEqual({ lines: [], totalLines: 0, files: 0 });
  });
});

describe("parseCountOutput and countPage", () => {
  it("reads path NUL count lines, then pages them in path order", () => {
    const counts = parseCountOutput(Buffer.from("./c\u00002\n./b\u00003\n./a:x\u00001\n"), "/r");
    expect(counts).toHaveLength(3);
    expect(countPage(counts, 0, undefined)).toEqual([
      { path: "/r/a:x", count: 1 },
      { path: "/r/b", count: 3 },
      { path: "/r/c", count: 2 },
    ]);
    expect(countPage(counts, 1, 1)).toEqual([{ path: "/r/b", count: 3 }]);
  });
});
