// `@path` at the prompt: which word is a mention, which paths complete it (real folders in a temp dir),
// what Tab makes of it; and the picker's keys.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completeMention, mentionAtCursor, pathSuggestions } from "./fileMentions.ts";
import { pickerKey } from "./picker.ts";
import { editorWith } from "./prompt/editor.ts";
import { NO_KEY } from "./testing/keys.ts";

let root: string;
let home: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "keel-mentions-")));
  home = join(root, "home");
  for (const dir of ["src/agent", "docs", "node_modules/x", ".git", ".github", "home/notes"])
    mkdirSync(join(root, dir), { recursive: true });
  for (const file of [
    "README.md",
    "readme-old.txt",
    "src/app.ts",
    "src/agent/loop.ts",
    ".env",
    "home/todo.md",
  ])
    writeFileSync(join(root, file), "x\n");
  symlinkSync(join(root, "docs"), join(root, "docs-link"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("mentionAtCursor", () => {
  it.each([
    ["explain @READ", 13, "READ"],
    ["@src/ag", 7, "src/ag"],
    ["look at @", 9, ""],
    ["mail me@example.com", 19, undefined],
    ["explain @README.md now", 18, "README.md"],
    ["explain @README.md now", 12, undefined],
    ["no mention here", 15, undefined],
  ])("%j with the cursor at %d: %j", (text, cursor, partial) => {
    expect(mentionAtCursor(editorWith(text, cursor))?.partial).toBe(partial);
  });
});

describe("pathSuggestions", () => {
  it.each([
    ["READ", ["README.md"]],
    ["", ["docs/", "docs-link/", "home/", "src/", "readme-old.txt", "README.md"]],
    ["src/", ["src/agent/", "src/app.ts"]],
    ["src/agent/l", ["src/agent/loop.ts"]],
    ["no", []],
    ["node_modules", ["node_modules/"]],
    // .git and node_modules only when their name is typed: never what a person means by a prefix.
    [".", [".github/", ".env"]],
    [".git", [".git/", ".github/"]],
    ["~/", ["~/notes/", "~/todo.md"]],
    ["missing/", []],
  ])("%j: %j", (partial, expected) => {
    expect(pathSuggestions(partial, root, home)).toEqual(expected);
  });
});

describe("completeMention", () => {
  it.each([
    ["explain @READ", ["README.md"], "explain @README.md ", 19],
    ["@sr", ["src/"], "@src/", 5],
    ["@src/ and more", ["src/agent/"], undefined, undefined],
    ["@README.md", ["README.md"], undefined, undefined],
    ["@zz", [], undefined, undefined],
  ])("%j with %j", (text, suggestions, completed, cursor) => {
    const result = completeMention(editorWith(text), suggestions);
    expect(result?.text).toBe(completed);
    expect(result?.cursor).toBe(cursor);
  });
});

describe("pickerKey", () => {
  const picker = { title: "t", items: [{ label: "a" }, { label: "b" }, { label: "c" }], selected: 1 };
  it.each([
    ["Down", "", { downArrow: true }, { type: "select", index: 2 }],
    ["Up", "", { upArrow: true }, { type: "select", index: 0 }],
    ["Ctrl+N", "n", { ctrl: true }, { type: "select", index: 2 }],
    ["Enter", "", { return: true }, { type: "pick", index: 1 }],
    ["3", "3", {}, { type: "pick", index: 2 }],
    ["9 (no such line)", "9", {}, undefined],
    ["Esc", "", { escape: true }, { type: "cancel" }],
    ["Ctrl-C", "c", { ctrl: true }, { type: "cancel" }],
    ["a letter", "x", {}, undefined],
  ])("%s", (_name, input, key, expected) => {
    expect(pickerKey(input, { ...NO_KEY, ...key }, picker)).toEqual(expected);
  });
});
