import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ReadTool } from "../read/ReadTool.ts";
import { runTool, runToolText, sharedFileToolSession, toolError } from "../shared/testSession.ts";
import { MultiEditTool } from "./MultiEditTool.ts";

const s = sharedFileToolSession();

let counter = 0;
async function readFile(content: string, name = `m${++counter}.txt`): Promise<string> {
  const path = s.path(name);
  writeFileSync(path, content);
  await runTool(ReadTool, { file_path: path }, s.context);
  return path;
}
const multi = (file_path: string, edits: Array<Record<string, unknown>>) =>
  runTool(MultiEditTool, { file_path, edits }, s.context);

describe("MultiEdit", () => {
  it("applies edits in order, each to the previous result", async () => {
    const path = await readFile("let a = 1;\nlet b = a;\n");
    const { data } = await multi(path, [
      { old_string: "let a = 1;", new_string: "let x = 1;" },
      { old_string: "let b = a;", new_string: "let b = x;" },
      { old_string: "x", new_string: "y", replace_all: true },
    ]);
    expect(readFileSync(path, "utf8")).toBe("let y = 1;\nlet b = y;\n");
    expect(data.strategies).toEqual(["exact", "exact", "exact"]);
    expect(data.replacements).toBe(4);
  });

  it("is all or nothing: a failing edit names its index and nothing is written", async () => {
    const original = "one\ntwo\nthree\n";
    const path = await readFile(original);
    const error = await toolError(
      multi(path, [
        { old_string: "one", new_string: "1" },
        { old_string: "two", new_string: "2" },
        { old_string: "four", new_string: "4" },
      ]),
    );
    expect(error.code).toBe("string_not_found");
    expect(error.message).toMatch(/^edits\[2\]: /);
    expect(readFileSync(path, "utf8")).toBe(original);
  });

  it.each([
    [[{ old_string: "a", new_string: "a" }], "no_change", /^edits\[0\]/],
    [
      [
        { old_string: "a", new_string: "b" },
        { old_string: "", new_string: "c" },
      ],
      "invalid_input",
      /^edits\[1\]/,
    ],
    [[{ old_string: "dup", new_string: "x" }], "not_unique", /^edits\[0\]: Found 2 matches/],
  ])("validates each edit: %j -> %s", async (edits, code, message) => {
    const path = await readFile("a\ndup\ndup\n");
    const error = await toolError(multi(path, edits));
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  });

  it("creates a file when the first old_string is empty, then applies the rest", async () => {
    const path = s.path("created", "by-multi.txt");
    const text = await runToolText(
      MultiEditTool,
      {
        file_path: path,
        edits: [
          { old_string: "", new_string: "hello world\n" },
          { old_string: "world", new_string: "there" },
        ],
      },
      s.context,
    );
    expect(readFileSync(path, "utf8")).toBe("hello there\n");
    expect(text).toBe(`File created successfully at: ${path}`);
  });

  it("needs a read first and keeps CRLF", async () => {
    const path = s.path("crlf.txt");
    writeFileSync(path, "a\r\nb\r\n");
    expect((await toolError(multi(path, [{ old_string: "a", new_string: "A" }]))).code).toBe("not_read");
    await runTool(ReadTool, { file_path: path }, s.context);
    await multi(path, [
      { old_string: "a\nb", new_string: "A\nB\nC" },
      { old_string: "C", new_string: "D" },
    ]);
    expect(readFileSync(path, "utf8")).toBe("A\r\nB\r\nD\r\n");
  });

  it("names the tolerant strategy per edit", async () => {
    const path = await readFile("it\u2019s here\nplain\n");
    const text = await runToolText(
      MultiEditTool,
      {
        file_path: path,
        edits: [
          { old_string: "it's here", new_string: "it's there" },
          { old_string: "plain", new_string: "PLAIN" },
        ],
      },
      s.context,
    );
    expect(readFileSync(path, "utf8")).toBe("it\u2019s there\nPLAIN\n");
    expect(text).toMatch(
      /edits\[0\]\.old_string did not match exactly; it was matched by the "quotes" strategy/,
    );
  });
});
