import { symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decidePermission } from "../../permissions/engine.ts";
import type { ToolError } from "../../tool/errors.ts";
import { withGlobIgnoreFile } from "../search-shared/ignoreFile.ts";
import { runRipgrep } from "../search-shared/ripgrep.ts";
import {
  callTool,
  callToolText,
  makeTempDir,
  removeDir,
  searchContext,
  setMtimes,
  writeTree,
} from "../search-shared/testing.ts";
import { GlobTool, globArgs } from "./GlobTool.ts";
import { globTarget, matchesEveryFile, patternMatcher, ripgrepFilter, toRipgrepGlob } from "./globTarget.ts";

let root: string;
let outside: string;

beforeAll(async () => {
  root = await makeTempDir();
  outside = await makeTempDir("keel-outside-");
  await writeTree(root, {
    "a.ts": "",
    "b.tsx": "",
    "README.md": "",
    "src/c.ts": "",
    "src/deep/d.ts": "",
    "src/deep/e.md": "",
    ".hidden/f.ts": "",
    ".env": "",
    ".git/g.ts": "",
    ".svn/h.ts": "",
    ".gitignore": "build/\n*.gen.ts\n",
    "build/out.ts": "",
    "x.gen.ts": "",
    "empty/": "",
    // A write in progress (or killed): Keel's temporary copy and lock, never listed.
    "src/.c.ts.4242.0a1b2c3d.keel-tmp": "partial",
    "src/.c.ts.keel-lock/": "",
  });
  await writeTree(outside, { "o.ts": "" });
  await symlink(outside, join(root, "linked"));
  const base = 1_600_000_000;
  await setMtimes(root, {
    "src/deep/d.ts": base + 500,
    "a.ts": base + 400,
    ".hidden/f.ts": base + 300,
    "src/c.ts": base + 200,
    "b.tsx": base + 100,
  });
});

afterAll(async () => {
  await removeDir(root);
  await removeDir(outside);
});

// Everything but VCS folders, gitignored files and the symlink (no ignore file is used for these patterns).
const everyListedFile = [
  "a.ts",
  "b.tsx",
  "README.md",
  "src/c.ts",
  "src/deep/d.ts",
  "src/deep/e.md",
  ".hidden/f.ts",
  ".env",
  ".gitignore",
];

const ctx = () => searchContext(root);
const glob = (input: Record<string, unknown>, context = ctx()) => callTool(GlobTool, input, context);
const abs = (path: string) => join(root, path);

describe("Glob", () => {
  it("finds files at any depth with **, newest first, hidden in, VCS, gitignored and symlinked out", async () => {
    const output = await glob({ pattern: "**/*.ts" });
    expect(output.filenames).toEqual([
      abs("src/deep/d.ts"),
      abs("a.ts"),
      abs(".hidden/f.ts"),
      abs("src/c.ts"),
    ]);
    expect(output.numFiles).toBe(4);
    expect(output.truncated).toBe(false);
    expect(output.notes).toEqual([]);
  });

  it("lists the same files in the same order when rg is asked line by line (a repeated small search)", async () => {
    const context = searchContext(root);
    // The first search is rg's default buffering; it remembers a small listing, so the next is line-buffered.
    const first = await callToolText(GlobTool, { pattern: "**/*" }, context);
    const second = await callToolText(GlobTool, { pattern: "**/*" }, context);
    expect(second).toBe(first);
  });

  it("matches a pattern without a slash at the top level only, as a shell glob does", async () => {
    expect((await glob({ pattern: "*.ts" })).filenames).toEqual([abs("a.ts")]);
    expect((await glob({ pattern: "*.md" })).filenames).toEqual([abs("README.md")]);
  });

  it.each([
    ["src/**/*.ts", ["src/deep/d.ts", "src/c.ts"]],
    ["./src/*.ts", ["src/c.ts"]],
    ["**/*.{ts,tsx}", ["src/deep/d.ts", "a.ts", ".hidden/f.ts", "src/c.ts", "b.tsx"]],
    ["**/deep/*", ["src/deep/d.ts", "src/deep/e.md"]],
    [".env", [".env"]],
    ["**/nothing*", []],
    ...["**/*", "**", "**/**/*"].map((pattern) => [pattern, everyListedFile] as [string, string[]]),
  ])("%s", async (pattern, expected) => {
    const output = await glob({ pattern });
    expect([...output.filenames].sort()).toEqual(expected.map(abs).sort());
  });

  it("keeps gitignored files out even when the pattern names them, and re-included files in only if they match", async () => {
    const tree = await makeTempDir();
    try {
      await writeTree(tree, {
        ".gitignore": "*.gen.ts\n!keep.gen.ts\n",
        "x.gen.ts": "",
        "keep.gen.ts": "",
        "src/a.ts": "",
      });
      const context = searchContext(tree);
      expect(await glob({ pattern: "x.gen.ts" }, context)).toEqual({
        filenames: [],
        numFiles: 0,
        truncated: false,
        notes: [],
      });
      expect((await glob({ pattern: "*.gen.ts" }, context)).filenames).toEqual([join(tree, "keep.gen.ts")]);
      expect((await glob({ pattern: "src/**" }, context)).filenames).toEqual([join(tree, "src/a.ts")]);
    } finally {
      await removeDir(tree);
    }
  });

  it("leaves out what the folders above the path ignore", async () => {
    const tree = await makeTempDir();
    try {
      await writeTree(tree, {
        ".gitignore": "*.gen.ts\n/src/build/\nsrc/*.log\n",
        "src/a.ts": "",
        "src/b.gen.ts": "",
        "src/c.log": "",
        "src/build/d.ts": "",
        "src/lib/build/e.ts": "",
        "src/lib/f.log": "",
      });
      const context = searchContext(tree);
      const found = async (pattern: string) =>
        [...(await glob({ pattern, path: join(tree, "src") }, context)).filenames].sort();
      expect(await found("**/*")).toEqual(
        ["src/a.ts", "src/lib/build/e.ts", "src/lib/f.log"].map((path) => join(tree, path)),
      );
      expect(await found("**/*.ts")).toEqual(
        ["src/a.ts", "src/lib/build/e.ts"].map((path) => join(tree, path)),
      );
      expect(await found("lib/**")).toEqual(
        ["src/lib/build/e.ts", "src/lib/f.log"].map((path) => join(tree, path)),
      );
    } finally {
      await removeDir(tree);
    }
  });

  it("has rg itself leave out files the pattern does not match (the picomatch check is only a backstop)", async () => {
    const root_ = { absolute: root, isDirectory: true, cwd: root, target: ".", denyPatterns: [] };
    const run = await withGlobIgnoreFile([toRipgrepGlob("**/*.md")], (args) =>
      runRipgrep(globArgs(root_, args), { cwd: root, signal: new AbortController().signal }),
    );
    expect(run.stderr).toBe("");
    expect(run.stdout.toString().split("\0").filter(Boolean).sort()).toEqual([
      "./README.md",
      "./src/deep/e.md",
    ]);
  });

  it.each([
    ["**/*.md", ["./README.md", "./src/deep/e.md"]],
    ["*.ts", ["./a.ts"]],
    ["**/*.{md,tsx}", ["./README.md", "./b.tsx", "./src/deep/e.md"]],
  ])("has rg itself narrow %s by depth and file name, with no ignore file", async (pattern, expected) => {
    const root_ = { absolute: root, isDirectory: true, cwd: root, target: ".", denyPatterns: [] };
    const filter = ripgrepFilter(pattern);
    expect(filter.needsIgnoreFile).toBe(false);
    const run = await runRipgrep(globArgs(root_, filter.args), {
      cwd: root,
      signal: new AbortController().signal,
    });
    expect(run.stderr).toBe("");
    expect(run.stdout.toString().split("\0").filter(Boolean).sort()).toEqual(expected);
  });

  it.each<[string, string[], boolean]>([
    ["**/*.ts", ["--type-add=keelglob:*.ts", "--type=keelglob"], false],
    ["*.ts", ["--max-depth=1", "--type-add=keelglob:*.ts", "--type=keelglob"], false],
    ["src/*/*.{ts,tsx}", ["--max-depth=3", "--type-add=keelglob:*.{ts,tsx}", "--type=keelglob"], false],
    ["src/**/package.json", ["--type-add=keelglob:package.json", "--type=keelglob"], false],
    ["src/*", ["--max-depth=2"], true],
    ["**/deep/*", [], true],
    ["src/**", [], true],
    ["**/[ab].ts", [], true],
    ["**/*.@(ts|js)", [], false],
    ["**/[[:alpha:]].ts", [], false],
    ["**/[^a].ts", [], false],
    ["**/{a,{b,c}}.ts", [], false],
    ["**/{1..3}.ts", [], false],
    ["!*.ts", [], false],
    ["{src,lib/x}/*.ts", [], true],
    ["**/*.{ts}", [], true],
    ["**/!(x).ts", [], false],
    ["**/a:b.ts", [], true],
    ["**/a\\*.ts", [], true],
  ])("filters %s in rg with %j (ignore file: %s)", (pattern, args, needsIgnoreFile) => {
    expect(ripgrepFilter(pattern)).toEqual({ args, needsIgnoreFile });
  });

  it.each([
    ["**/[ab].ts", ["a.ts"]],
    ["**/*.@(md|tsx)", ["README.md", "b.tsx", "src/deep/e.md"]],
    ["{src,.hidden}/*.ts", ["src/c.ts", ".hidden/f.ts"]],
    ["**/!(d).ts", ["a.ts", "src/c.ts", ".hidden/f.ts"]],
    ["**/[^a-c].ts", ["src/deep/d.ts", ".hidden/f.ts"]],
    ["!**/*.{ts,md,tsx}", [".env", ".gitignore"]],
    ["src/*/*.{ts,md}", ["src/deep/d.ts", "src/deep/e.md"]],
  ])("gives the same files for %s when rg cannot narrow it by name", async (pattern, expected) => {
    const output = await glob({ pattern });
    expect([...output.filenames].sort()).toEqual(expected.map(abs).sort());
  });

  it.each([
    ["**", true],
    ["**/*", true],
    ["**/**/*", true],
    ["**/*.ts", false],
    ["*", false],
    ["**/*/*", false],
    ["src/**", false],
  ])("knows whether %s matches every file: %s", (pattern, expected) => {
    expect(matchesEveryFile(pattern)).toBe(expected);
  });

  it("rejects a pattern of more than one line", () => {
    expect(GlobTool.inputSchema.safeParse({ pattern: "*.ts\n!secret" }).success).toBe(false);
  });

  it("searches from path, relative to the current directory", async () => {
    expect((await glob({ pattern: "*", path: "src/deep" })).filenames.sort()).toEqual(
      [abs("src/deep/d.ts"), abs("src/deep/e.md")].sort(),
    );
    const context = ctx();
    context.setAppState((state) => ({ ...state, cwd: abs("src") }));
    expect((await glob({ pattern: "*.ts" }, context)).filenames).toEqual([abs("src/c.ts")]);
  });

  it("takes an absolute pattern's folders as its root", async () => {
    expect(globTarget({ pattern: `${root}/src/**/*.ts` })).toEqual({
      path: `${root}/src`,
      pattern: "**/*.ts",
    });
    expect((await glob({ pattern: `${root}/src/*.ts` })).filenames).toEqual([abs("src/c.ts")]);
  });

  it("caps results at 100 (or the context's limit) and says they were truncated", async () => {
    const many = await makeTempDir();
    try {
      const files: Record<string, string> = {};
      for (let i = 0; i < 120; i++) files[`n${String(i).padStart(3, "0")}.txt`] = "";
      await writeTree(many, files);
      const mtimes: Record<string, number> = {};
      for (let i = 0; i < 120; i++) mtimes[`n${String(i).padStart(3, "0")}.txt`] = 1_600_000_000 + i;
      await setMtimes(many, mtimes);
      const output = await glob({ pattern: "*.txt" }, searchContext(many));
      expect(output.filenames).toHaveLength(100);
      expect(output.filenames[0]).toBe(join(many, "n119.txt"));
      expect(output.filenames[99]).toBe(join(many, "n020.txt"));
      expect(output.numFiles).toBe(120);
      expect(output.truncated).toBe(true);
      const text = await callToolText(GlobTool, { pattern: "*.txt" }, searchContext(many));
      expect(text).toMatch(/\(Results are truncated: showing the 100 most recently modified of 120 files\./);
      const limited = searchContext(many);
      limited.globLimits = { maxResults: 5 };
      expect((await glob({ pattern: "*.txt" }, limited)).filenames).toHaveLength(5);
    } finally {
      await removeDir(many);
    }
  });

  it("says No files found", async () => {
    expect(await callToolText(GlobTool, { pattern: "*.nothing" }, ctx())).toBe("No files found");
  });

  it("rejects a missing path and a path that is a file", async () => {
    const missing = await GlobTool.validateInput!({ pattern: "*", path: "nope" }, ctx());
    expect(missing).toMatchObject({ result: false, errorCode: "file_not_found" });
    const file = await GlobTool.validateInput!({ pattern: "*", path: "a.ts" }, ctx());
    expect(file).toMatchObject({ result: false, errorCode: "not_a_directory" });
    const error = (await glob({ pattern: "*", path: "a.ts" }).catch((e: unknown) => e)) as ToolError;
    expect(error.code).toBe("not_a_directory");
    const gone = (await glob({ pattern: "*", path: "nope" }).catch((e: unknown) => e)) as ToolError;
    expect(gone.code).toBe("file_not_found");
  });

  it("is cancelled by an aborted signal", async () => {
    const context = ctx();
    context.abortController.abort();
    const error = (await glob({ pattern: "**/*" }, context).catch((e: unknown) => e)) as ToolError;
    expect(error.code).toBe("aborted");
  });

  it("asks for a root outside the working directories, an absolute pattern's root included", async () => {
    expect((await decidePermission(GlobTool, { pattern: "**/*.ts" }, ctx())).behavior).toBe("allow");
    expect((await decidePermission(GlobTool, { pattern: "*.ts", path: outside }, ctx())).behavior).toBe(
      "ask",
    );
    expect((await decidePermission(GlobTool, { pattern: `${outside}/**/*.ts` }, ctx())).behavior).toBe("ask");
    expect(GlobTool.getPath!({ pattern: `${outside}/**/*.ts` })).toBe(outside);
    expect(GlobTool.isReadOnly({ pattern: "*" })).toBe(true);
    expect(GlobTool.isConcurrencySafe({ pattern: "*" })).toBe(true);
    expect(GlobTool.permissionRuleNames).toEqual(["Read"]);
  });

  it("compiles a pattern once, and a pattern dropped from the kept ones is compiled again alike", () => {
    const first = patternMatcher("src/**/*.ts");
    expect(patternMatcher("src/**/*.ts")).toBe(first);
    for (let i = 0; i < 70; i++) patternMatcher(`other${i}/*.md`);
    const again = patternMatcher("src/**/*.ts");
    expect(again).not.toBe(first);
    for (const matcher of [first, again]) {
      expect(matcher("src/a/b.ts")).toBe(true);
      expect(matcher("src/.hidden/b.ts")).toBe(true);
      expect(matcher("lib/b.ts")).toBe(false);
    }
    // The one used last stays: 70 later patterns drop the oldest first.
    for (let i = 0; i < 70; i++) {
      patternMatcher(`more${i}/*.md`);
      expect(patternMatcher("src/**/*.ts")).toBe(again);
    }
  });
});
