import { chmodSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { addRules, type ToolUseContext } from "../../tool/context.ts";
import { ReadTool } from "../read/ReadTool.ts";
import { runTool, runToolText, sharedFileToolSession, toolError } from "../shared/testSession.ts";
import { WriteTool } from "./WriteTool.ts";

const s = sharedFileToolSession();

let counter = 0;
function file(content: string | Buffer, name = `w${++counter}.txt`): string {
  const path = s.path(name);
  writeFileSync(path, content);
  return path;
}
const readFirst = (path: string, extra: Record<string, unknown> = {}) =>
  runTool(ReadTool, { file_path: path, ...extra }, s.context);
const write = (file_path: string, content: string, context: ToolUseContext = s.context) =>
  runTool(WriteTool, { file_path, content }, context);

function withRules(rules: string[]): ToolUseContext {
  const permissionContext = addRules(s.context.getAppState().toolPermissionContext, "deny", "project", rules);
  return {
    ...s.context,
    getAppState: () => ({ ...s.context.getAppState(), toolPermissionContext: permissionContext }),
  };
}

describe("Write", () => {
  it("rewriting a one-line 32 MB file: the result cuts the line, far under the budget (no copy saved to disk)", async () => {
    const path = s.path("one-line.txt");
    await write(path, "a".repeat(32 << 20));
    const text = await runToolText(WriteTool, { file_path: path, content: "b".repeat(32 << 20) }, s.context);
    expect(text).toContain("line cut at");
    // Every result budget (Write's is 50,000 characters) is far above this: nothing is persisted.
    expect(text.length).toBeLessThan(20_000);
    expect(statSync(path).size).toBe(32 << 20);
  });

  it("creates a new file and its folders", async () => {
    const path = s.path("a", "b", "new.txt");
    expect(await runToolText(WriteTool, { file_path: path, content: "hello\n" }, s.context)).toBe(
      `File created successfully at: ${path}`,
    );
    expect(readFileSync(path, "utf8")).toBe("hello\n");
  });

  it("overwriting needs a full read first", async () => {
    const path = file("1\n2\n3\n");
    expect((await toolError(write(path, "x"))).code).toBe("not_read");
    await readFirst(path, { offset: 2, limit: 1 });
    const partial = await toolError(write(path, "x"));
    expect(partial.code).toBe("not_read");
    expect(partial.message).toMatch(/only read in part/);
    await readFirst(path);
    const { data } = await write(path, "1\nTWO\n3\n");
    expect(readFileSync(path, "utf8")).toBe("1\nTWO\n3\n");
    expect(data.type).toBe("update");
    expect(data.structuredPatch?.[0]?.lines).toEqual([" 1", "-2", "+TWO", " 3"]);
  });

  it("refuses when the file changed since it was read", async () => {
    const path = file("mine\n");
    await readFirst(path);
    writeFileSync(path, "theirs\n");
    utimesSync(path, new Date(), new Date(Date.now() + 10_000));
    expect((await toolError(write(path, "overwrite"))).code).toBe("changed_since_read");
    expect(readFileSync(path, "utf8")).toBe("theirs\n");
  });

  it("a written file can be written again without a re-read", async () => {
    const path = s.path("twice.txt");
    await write(path, "one");
    await write(path, "two");
    expect(readFileSync(path, "utf8")).toBe("two");
  });

  it("keeps an existing file's CRLF line endings, BOM and mode", async () => {
    const path = file(Buffer.from("\ufeffa\r\nb\r\n", "utf8"));
    chmodSync(path, 0o640);
    await readFirst(path);
    await write(path, "x\ny\n");
    expect(readFileSync(path)).toEqual(Buffer.from("\ufeffx\r\ny\r\n", "utf8"));
    expect(statSync(path).mode & 0o777).toBe(0o640);
  });

  it("keeps UTF-16 BE", async () => {
    const encode = (text: string) =>
      Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, "utf16le").swap16()]);
    const path = file(encode("old\n"));
    await readFirst(path);
    await write(path, "nëw\n");
    expect(readFileSync(path)).toEqual(encode("nëw\n"));
  });

  it("refuses a directory", async () => {
    mkdirSync(s.path("folder"));
    expect((await toolError(write(s.path("folder"), "x"))).code).toBe("is_directory");
  });

  it("Write and Edit deny rules both cover it", async () => {
    expect(
      (await toolError(write(s.path("w-locked", "f"), "x", withRules(["Write(/w-locked/**)"])))).code,
    ).toBe("permission_denied");
    expect((await toolError(write(s.path("docs", "f"), "x", withRules(["Edit(/docs/**)"])))).code).toBe(
      "permission_denied",
    );
  });
});
