import {
  chmodSync,
  lstatSync,
  readFileSync,
  statSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { describe, expect, it } from "vitest";
import type { ToolUseContext } from "../../tool/context.ts";
import { addRules } from "../../tool/context.ts";
import { ReadTool } from "../read/ReadTool.ts";
import { MAX_EDITABLE_BYTES } from "../shared/editableFile.ts";
import { runTool, runToolText, sharedFileToolSession, toolError } from "../shared/testSession.ts";
import { EditTool } from "./EditTool.ts";

const s = sharedFileToolSession();

let counter = 0;
function file(content: string | Buffer, name = `e${++counter}.txt`): string {
  const path = s.path(name);
  writeFileSync(path, content);
  return path;
}
async function readFirst(
  path: string,
  context: ToolUseContext = s.context,
  extra: Record<string, unknown> = {},
) {
  await runTool(ReadTool, { file_path: path, ...extra }, context);
}
const edit = (input: Record<string, unknown>, context: ToolUseContext = s.context) =>
  runTool(EditTool, input, context);
const editText = (input: Record<string, unknown>) => runToolText(EditTool, input, s.context);
const editError = (input: Record<string, unknown>, context: ToolUseContext = s.context) =>
  toolError(edit(input, context));

describe("Edit: errors, each with a code", () => {
  it("no_change: old_string equals new_string", async () => {
    const path = file("a");
    await readFirst(path);
    expect((await editError({ file_path: path, old_string: "a", new_string: "a" })).code).toBe("no_change");
  });

  it("permission_denied: an Edit deny rule covers the path", async () => {
    const path = file("a", "locked.lock");
    await readFirst(path);
    const permissionContext = addRules(s.context.getAppState().toolPermissionContext, "deny", "project", [
      "Edit(*.lock)",
    ]);
    const context = {
      ...s.context,
      getAppState: () => ({ ...s.context.getAppState(), toolPermissionContext: permissionContext }),
    };
    expect((await editError({ file_path: path, old_string: "a", new_string: "b" }, context)).code).toBe(
      "permission_denied",
    );
  });

  it("file_exists: empty old_string on an existing non-empty file", async () => {
    const path = file("content");
    expect((await editError({ file_path: path, old_string: "", new_string: "x" })).code).toBe("file_exists");
  });

  it("file_not_found, with names that look alike", async () => {
    file("x", "settings.yaml");
    const error = await editError({ file_path: s.path("setings.yaml"), old_string: "a", new_string: "b" });
    expect(error.code).toBe("file_not_found");
    expect(error.message).toContain(s.path("settings.yaml"));
  });

  it("wrong_tool for .ipynb files", async () => {
    const path = file("{}", "n.ipynb");
    expect((await editError({ file_path: path, old_string: "{", new_string: "[" })).code).toBe("wrong_tool");
  });

  it("not_read: the file was never read", async () => {
    const path = file("unread");
    const error = await editError({ file_path: path, old_string: "unread", new_string: "read" });
    expect(error.code).toBe("not_read");
    expect(error.message).toMatch(/Read it first/);
  });

  it("changed_since_read: the file changed on disk after the read", async () => {
    const path = file("version one\n");
    await readFirst(path);
    writeFileSync(path, "version two\n");
    utimesSync(path, new Date(), new Date(Date.now() + 10_000));
    const error = await editError({ file_path: path, old_string: "version", new_string: "v" });
    expect(error.code).toBe("changed_since_read");
    expect(readFileSync(path, "utf8")).toBe("version two\n");
  });

  it("changed with the mtime as it was (two writes in one clock tick): stale, and the next Read reads it afresh", async () => {
    const path = file("version one\n");
    await readFirst(path);
    const { atime, mtime } = statSync(path);
    writeFileSync(path, "version two\n");
    utimesSync(path, atime, mtime);
    const error = await editError({ file_path: path, old_string: "version", new_string: "v" });
    expect(error.code).toBe("changed_since_read");
    expect(error.message).toMatch(/stale\. Read it again/);
    expect(readFileSync(path, "utf8")).toBe("version two\n");
    // Not the "unchanged since last read" stub, although the mtime did not move.
    expect(await runToolText(ReadTool, { file_path: path }, s.context)).toContain("version two");
    await edit({ file_path: path, old_string: "version two", new_string: "version three" });
    expect(readFileSync(path, "utf8")).toBe("version three\n");
  });

  it("a touch without a content change is not a change", async () => {
    const path = file("same\n");
    await readFirst(path);
    utimesSync(path, new Date(), new Date(Date.now() + 10_000));
    await edit({ file_path: path, old_string: "same", new_string: "edited" });
    expect(readFileSync(path, "utf8")).toBe("edited\n");
  });

  it("string_not_found shows the closest region with line numbers", async () => {
    const path = file("alpha\nfunction greet(name) {\n  return 'hi ' + name;\n}\nomega\n");
    await readFirst(path);
    const error = await editError({
      file_path: path,
      old_string: "function greet(person) {\n  return 'hi ' + person;\n}",
      new_string: "x",
    });
    expect(error.code).toBe("string_not_found");
    expect(error.message).toContain("closest match is at lines 2-4");
    expect(error.message).toContain("     2\tfunction greet(name) {");
  });

  it("not_unique: found several times without replace_all, naming the lines", async () => {
    const path = file("x = 1\ny = 2\nx = 1\n");
    await readFirst(path);
    const error = await editError({ file_path: path, old_string: "x = 1", new_string: "x = 3" });
    expect(error.code).toBe("not_unique");
    expect(error.message).toMatch(/Found 2 matches .* \(at lines 1, 3\)/);
  });

  it("too_large: files over the editing limit are refused before reading", async () => {
    const path = s.path("huge.bin.txt");
    writeFileSync(path, "");
    truncateSync(path, MAX_EDITABLE_BYTES + 1);
    expect((await editError({ file_path: path, old_string: "a", new_string: "b" })).code).toBe("too_large");
  });
});

describe("Edit: changes", () => {
  it("an empty old_string creates a missing file, with its folders", async () => {
    const path = s.path("new", "deep", "file.ts");
    const text = await editText({ file_path: path, old_string: "", new_string: "export {};\n" });
    expect(text).toBe(`File created successfully at: ${path}`);
    expect(readFileSync(path, "utf8")).toBe("export {};\n");
  });

  it("an empty old_string fills an existing empty file", async () => {
    const path = file("");
    await edit({ file_path: path, old_string: "", new_string: "filled" });
    expect(readFileSync(path, "utf8")).toBe("filled");
  });

  it("replaces the unique match and shows a numbered snippet and a structured diff", async () => {
    const path = file("one\ntwo\nthree\nfour\n");
    await readFirst(path);
    const { data } = await edit({ file_path: path, old_string: "three", new_string: "THREE" });
    expect(readFileSync(path, "utf8")).toBe("one\ntwo\nTHREE\nfour\n");
    expect(data.snippet).toBe("     1\tone\n     2\ttwo\n     3\tTHREE\n     4\tfour");
    expect(data.strategies).toEqual(["exact"]);
    expect(data.structuredPatch).toEqual([
      {
        oldStart: 1,
        oldLines: 4,
        newStart: 1,
        newLines: 4,
        lines: [" one", " two", "-three", "+THREE", " four"],
      },
    ]);
  });

  it("diff line numbers are those of the whole file", async () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`);
    const path = file(`${lines.join("\n")}\n`);
    await readFirst(path);
    const { data } = await edit({ file_path: path, old_string: "line 50\n", new_string: "line fifty\n" });
    expect(data.structuredPatch?.[0]).toMatchObject({ oldStart: 47, newStart: 47 });
    expect(data.snippet).toContain("    50\tline fifty");
  });

  it("replace_all replaces every occurrence", async () => {
    const path = file("foo bar foo baz foo\n");
    await readFirst(path);
    const text = await editText({ file_path: path, old_string: "foo", new_string: "qux", replace_all: true });
    expect(readFileSync(path, "utf8")).toBe("qux bar qux baz qux\n");
    expect(text).toContain("(3 replacements)");
  });

  it("consecutive edits need no re-read (readFileState is updated)", async () => {
    const path = file("a\nb\n");
    await readFirst(path);
    await edit({ file_path: path, old_string: "a", new_string: "A" });
    await edit({ file_path: path, old_string: "b", new_string: "B" });
    expect(readFileSync(path, "utf8")).toBe("A\nB\n");
  });

  it("an edit may follow a partial read", async () => {
    const path = file("1\n2\n3\n4\n");
    await readFirst(path, s.context, { offset: 3, limit: 1 });
    await edit({ file_path: path, old_string: "3", new_string: "three" });
    expect(readFileSync(path, "utf8")).toBe("1\n2\nthree\n4\n");
  });

  it("keeps CRLF line endings, also for multi-line old and new strings given with LF", async () => {
    const path = file("first\r\nsecond\r\nthird\r\n");
    await readFirst(path);
    await edit({ file_path: path, old_string: "first\nsecond", new_string: "1st\n2nd\nextra" });
    expect(readFileSync(path, "utf8")).toBe("1st\r\n2nd\r\nextra\r\nthird\r\n");
  });

  it("keeps a UTF-8 BOM", async () => {
    const path = file(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("héllo\n")]));
    await readFirst(path);
    await edit({ file_path: path, old_string: "héllo", new_string: "wörld" });
    expect(readFileSync(path)).toEqual(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("wörld\n")]),
    );
  });

  it("keeps UTF-16 LE with its BOM", async () => {
    const path = file(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("key=välue\r\n", "utf16le")]));
    await readFirst(path);
    await edit({ file_path: path, old_string: "välue", new_string: "ünicode" });
    expect(readFileSync(path)).toEqual(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("key=ünicode\r\n", "utf16le")]),
    );
  });

  it("keeps bytes that are not UTF-8, and refuses characters the encoding cannot hold", async () => {
    const path = file(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x31, 0x0a]));
    await readFirst(path);
    await edit({ file_path: path, old_string: "1", new_string: "2" });
    expect(readFileSync(path)).toEqual(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x32, 0x0a]));
    expect((await editError({ file_path: path, old_string: "2", new_string: "€" })).code).toBe(
      "unsupported_encoding",
    );
  });

  it("keeps the file's mode", async () => {
    const path = file("#!/bin/sh\necho hi\n", "run.sh");
    chmodSync(path, 0o751);
    await readFirst(path);
    await edit({ file_path: path, old_string: "hi", new_string: "hello" });
    expect(statSync(path).mode & 0o777).toBe(0o751);
  });

  it("editing through a symlink changes the target and keeps the link", async () => {
    const target = file("through link\n", "target.txt");
    const link = s.path("link-to-target.txt");
    symlinkSync(target, link);
    await readFirst(link);
    await edit({ file_path: link, old_string: "through", new_string: "via" });
    expect(readFileSync(target, "utf8")).toBe("via link\n");
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it("two concurrent edits of one file both land", async () => {
    const path = file("alpha\nbeta\ngamma\n");
    await readFirst(path);
    await Promise.all([
      edit({ file_path: path, old_string: "alpha", new_string: "ALPHA" }),
      edit({ file_path: path, old_string: "gamma", new_string: "GAMMA" }),
      edit({ file_path: path, old_string: "beta", new_string: "BETA" }),
    ]);
    expect(readFileSync(path, "utf8")).toBe("ALPHA\nBETA\nGAMMA\n");
  });
});

describe("Edit: tolerant matching", () => {
  it("quotes: straight quotes match curly ones, and the file's curly style is kept", async () => {
    const path = file("She said \u201chello\u201d and it\u2019s fine.\n");
    await readFirst(path);
    const text = await editText({
      file_path: path,
      old_string: `She said "hello" and it's fine.`,
      new_string: `She said "goodbye" and it's done.`,
    });
    expect(readFileSync(path, "utf8")).toBe("She said \u201cgoodbye\u201d and it\u2019s done.\n");
    expect(text).toMatch(/"quotes" strategy/);
  });

  it("trailing whitespace at line ends is forgiven", async () => {
    const path = file("if (x) {   \n  run();\t\n}\n");
    await readFirst(path);
    const { data } = await edit({
      file_path: path,
      old_string: "if (x) {\n  run();\n}",
      new_string: "if (y) {\n  go();\n}",
    });
    expect(readFileSync(path, "utf8")).toBe("if (y) {\n  go();\n}\n");
    expect(data.strategies).toEqual(["trailing-whitespace"]);
  });

  it("indentation: a block given at another indent matches, and new_string is re-indented", async () => {
    const path = file("class A {\n    method() {\n        return 1;\n    }\n}\n");
    await readFirst(path);
    const { data } = await edit({
      file_path: path,
      old_string: "method() {\n    return 1;\n}",
      new_string: "method() {\n    return 2;\n}",
    });
    expect(readFileSync(path, "utf8")).toBe("class A {\n    method() {\n        return 2;\n    }\n}\n");
    expect(data.strategies).toEqual(["indentation"]);
  });

  it("line-number prefixes copied from Read output are forgiven", async () => {
    const path = file("a\nb\nc\n");
    await readFirst(path);
    const { data } = await edit({
      file_path: path,
      old_string: "     2\tb\n     3\tc",
      new_string: "     2\tB\n     3\tC",
    });
    expect(readFileSync(path, "utf8")).toBe("a\nB\nC\n");
    expect(data.strategies).toEqual(["line-number-prefixes"]);
  });

  it("a tolerant strategy with two matches is not used", async () => {
    const path = file("say \u201chi\u201d\nsay \u201chi\u201d\n");
    await readFirst(path);
    const error = await editError({ file_path: path, old_string: 'say "hi"', new_string: 'say "bye"' });
    expect(error.code).toBe("string_not_found");
    expect(error.message).toMatch(/curly versus straight quotes.*2 or more places/);
  });
});
