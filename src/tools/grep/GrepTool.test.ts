import { execFileSync } from "node:child_process";
import { symlink } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decidePermission } from "../../permissions/engine.ts";
import type { ToolError } from "../../tool/errors.ts";
import {
  callTool,
  callToolText,
  makeTempDir,
  removeDir,
  searchContext,
  setMtimes,
  writeTree,
} from "../search-shared/testing.ts";
import { GrepTool, grepInputSchema } from "./GrepTool.ts";
import { grepArgs } from "./searchContents.ts";

let root: string;
let outside: string;

beforeAll(async () => {
  root = await makeTempDir();
  outside = await makeTempDir("keel-outside-");
  await writeTree(root, {
    "a.ts": "const alpha = 1;\nfunction hello() {}\n// TODO fix\n",
    "b.js": "Hello world\nhello again\n",
    "src/c.ts": "export function hello(name) {\n  return name;\n}\n",
    "src/deep/d.py": "def hello():\n    pass\n",
    ".hidden/e.ts": "hello hidden\n",
    ".git/f.ts": "hello in git\n",
    ".hg/g.ts": "hello in hg\n",
    ".gitignore": "ignored/\n*.log\n",
    "ignored/h.ts": "hello ignored\n",
    "i.log": "hello log\n",
    "dash.txt": "-flag here\n--double\n",
    "long.txt": `hello ${"x".repeat(2_000)}\n`,
    "multi.txt": "start\nmiddle\nend\n",
    "ctx.txt": "one\ntwo\nthree MATCH\nfour\nfive\nsix\nseven\neight MATCH\nnine\n",
  });
  await writeTree(outside, { "o.txt": "hello from outside\n" });
  await symlink(outside, join(root, "linked"));
  await symlink(join(outside, "o.txt"), join(root, "linked-file.txt"));
  // Newest first: a.ts, then src/c.ts, then b.js, then the rest (older).
  const base = 1_600_000_000;
  await setMtimes(root, {
    "a.ts": base + 300,
    "src/c.ts": base + 200,
    "b.js": base + 100,
    "src/deep/d.py": base + 50,
    ".hidden/e.ts": base + 40,
    "long.txt": base + 30,
  });
});

afterAll(async () => {
  await removeDir(root);
  await removeDir(outside);
});

const ctx = () => searchContext(root);
const grep = (input: Record<string, unknown>) => callTool(GrepTool, input, ctx());
const grepText = (input: Record<string, unknown>) => callToolText(GrepTool, input, ctx());
const abs = (path: string) => join(root, path);

async function grepError(input: Record<string, unknown>): Promise<ToolError> {
  return (await grep(input).then(
    () => undefined,
    (error: unknown) => error,
  )) as ToolError;
}

describe("Grep files_with_matches (default)", () => {
  it("lists matching files newest first, hidden files in, VCS folders, gitignored files and symlinks out", async () => {
    const output = await grep({ pattern: "hello" });
    expect(output.mode).toBe("files_with_matches");
    expect(output.filenames.slice(0, 6)).toEqual([
      abs("a.ts"),
      abs("src/c.ts"),
      abs("b.js"),
      abs("src/deep/d.py"),
      abs(".hidden/e.ts"),
      abs("long.txt"),
    ]);
    expect(output.filenames).toHaveLength(6);
    const text = await grepText({ pattern: "hello" });
    expect(text.startsWith("Found 6 files\n")).toBe(true);
    for (const hidden of [".git/", ".hg/", "ignored/", "i.log", "linked", "outside"])
      expect(text).not.toContain(hidden);
  });

  it("says so when nothing matches", async () => {
    expect(await grepText({ pattern: "no-such-text-anywhere" })).toBe("No files found");
  });

  it("pages with head_limit and offset, and says how to continue", async () => {
    const first = await grep({ pattern: "hello", head_limit: 2 });
    expect(first.filenames).toEqual([abs("a.ts"), abs("src/c.ts")]);
    expect(first.numFiles).toBe(6);
    expect(first.appliedLimit).toBe(2);
    expect(await grepText({ pattern: "hello", head_limit: 2 })).toContain(
      "[Showing files 1-2 of 6. Use offset=2 to see more.]",
    );
    const second = await grep({ pattern: "hello", head_limit: 2, offset: 2 });
    expect(second.filenames).toEqual([abs("b.js"), abs("src/deep/d.py")]);
    const last = await grepText({ pattern: "hello", head_limit: 4, offset: 4 });
    expect(last).toContain("[Showing files 5-6 of 6.]");
    const all = await grep({ pattern: "hello", head_limit: 0 });
    expect(all.filenames).toHaveLength(6);
    expect(all.appliedLimit).toBeUndefined();
  });

  it("searches one file when path is a file", async () => {
    const output = await grep({ pattern: "hello", path: "b.js" });
    expect(output.filenames).toEqual([abs("b.js")]);
  });
});

describe("Grep content mode", () => {
  it("prints path:line:text, files in path order, line numbers by default", async () => {
    const text = await grepText({ pattern: "hello", output_mode: "content", glob: "*.{ts,js}" });
    expect(text.split("\n")).toEqual([
      `${abs(".hidden/e.ts")}:1:hello hidden`,
      `${abs("a.ts")}:2:function hello() {}`,
      `${abs("b.js")}:2:hello again`,
      `${abs("src/c.ts")}:1:export function hello(name) {`,
    ]);
  });

  it("drops line numbers with -n false", async () => {
    const text = await grepText({ pattern: "hello", output_mode: "content", "-n": false, path: "src" });
    expect(text.split("\n")).toEqual([
      `${abs("src/c.ts")}:export function hello(name) {`,
      `${abs("src/deep/d.py")}:def hello():`,
    ]);
  });

  it("shows context with -C, -A, -B and context; context lines use '-' and groups are split by --", async () => {
    const around = await grepText({ pattern: "MATCH", output_mode: "content", "-C": 1, path: "ctx.txt" });
    expect(around.split("\n")).toEqual([
      "2-two",
      "3:three MATCH",
      "4-four",
      "--",
      "7-seven",
      "8:eight MATCH",
      "9-nine",
    ]);
    expect(await grepText({ pattern: "MATCH", output_mode: "content", context: 1, path: "ctx.txt" })).toBe(
      around,
    );
    const after = await grepText({ pattern: "MATCH", output_mode: "content", "-A": 1, path: "ctx.txt" });
    expect(after.split("\n")).toEqual(["3:three MATCH", "4-four", "--", "8:eight MATCH", "9-nine"]);
    const before = await grepText({
      pattern: "MATCH",
      output_mode: "content",
      "-B": 2,
      "-C": 0,
      path: "ctx.txt",
    });
    expect(before.split("\n")).toEqual([
      "1-one",
      "2-two",
      "3:three MATCH",
      "--",
      "6-six",
      "7-seven",
      "8:eight MATCH",
    ]);
  });

  it("keeps context markers when the search root is a folder", async () => {
    const text = await grepText({ pattern: "MATCH", output_mode: "content", "-A": 1, glob: "ctx.txt" });
    expect(text.split("\n")).toEqual([
      `${abs("ctx.txt")}:3:three MATCH`,
      `${abs("ctx.txt")}-4-four`,
      "--",
      `${abs("ctx.txt")}:8:eight MATCH`,
      `${abs("ctx.txt")}-9-nine`,
    ]);
  });

  it("is case-insensitive with -i", async () => {
    const sensitive = await grep({ pattern: "Hello", output_mode: "content", path: "b.js" });
    expect(sensitive.content).toBe("1:Hello world");
    const insensitive = await grep({ pattern: "Hello", output_mode: "content", path: "b.js", "-i": true });
    expect(insensitive.content).toBe("1:Hello world\n2:hello again");
  });

  it("matches across lines only with multiline", async () => {
    expect(await grepText({ pattern: "start.*end", output_mode: "content", path: "multi.txt" })).toBe(
      "No matches found",
    );
    const text = await grepText({
      pattern: "start.*end",
      output_mode: "content",
      path: "multi.txt",
      multiline: true,
    });
    expect(text.split("\n")).toEqual(["1:start", "2:middle", "3:end"]);
  });

  it("takes a pattern that starts with a dash as a pattern", async () => {
    expect(await grepText({ pattern: "-flag", output_mode: "content", path: "dash.txt" })).toBe(
      "1:-flag here",
    );
    expect(await grepText({ pattern: "--double", output_mode: "content", path: "dash.txt" })).toBe(
      "2:--double",
    );
  });

  it("cuts long lines to a 500-column preview", async () => {
    const output = await grep({ pattern: "hello", output_mode: "content", path: "long.txt" });
    expect(output.content).toMatch(/^1:hello x+ \[\.\.\. omitted end of long line\]$/);
    expect(output.content!.length).toBeLessThan(600);
  });

  it("pages content lines with head_limit and offset", async () => {
    const first = await grepText({ pattern: "e", output_mode: "content", path: "ctx.txt", head_limit: 2 });
    expect(first).toBe("1:one\n3:three MATCH\n\n[Showing lines 1-2 of 6. Use offset=2 to see more.]");
    const second = await grep({
      pattern: "e",
      output_mode: "content",
      path: "ctx.txt",
      head_limit: 2,
      offset: 2,
    });
    expect(second.content).toBe("5:five\n7:seven");
  });
});

describe("Grep count mode", () => {
  it("counts matching lines per file, in path order, with a total", async () => {
    const text = await grepText({ pattern: "hello", output_mode: "count", "-i": true, glob: "*.js,*.py" });
    expect(text).toBe(`${abs("b.js")}:2\n${abs("src/deep/d.py")}:1\n\nFound 3 matching lines in 2 files.`);
  });

  it("pages counts", async () => {
    const output = await grep({ pattern: "hello", output_mode: "count", head_limit: 1, offset: 1 });
    expect(output.filenames).toEqual([abs("a.ts")]);
    expect(output.numFiles).toBe(6);
  });
});

describe("Grep filters", () => {
  it.each([
    ["glob *.ts (any depth)", { glob: "*.ts" }, ["a.ts", "src/c.ts", ".hidden/e.ts"]],
    ["glob with braces", { glob: "*.{js,py}" }, ["b.js", "src/deep/d.py"]],
    ["glob list", { glob: "*.js *.py" }, ["b.js", "src/deep/d.py"]],
    ["glob anchored to a folder", { glob: "src/**" }, ["src/c.ts", "src/deep/d.py"]],
    ["type py", { type: "py" }, ["src/deep/d.py"]],
    ["type js", { type: "js" }, ["b.js"]],
    ["glob naming a gitignored file (.gitignore still wins)", { glob: "*.log" }, []],
    ["glob with an exclusion", { glob: "*.ts,!**/c.ts" }, ["a.ts", ".hidden/e.ts"]],
    ["exclusion only", { glob: "!*.ts" }, ["b.js", "src/deep/d.py", "long.txt"]],
  ])("%s", async (_name, filter, expected) => {
    const output = await grep({ pattern: "hello", ...filter });
    expect([...output.filenames].sort()).toEqual(expected.map(abs).sort());
    expect(output.notes).toEqual([]);
  });
});

describe("Grep in a folder below the .gitignore", () => {
  it("leaves out what the folders above the path ignore, with and without a glob", async () => {
    // The .gitignore above src/ ignores *.log and src/build/ (not src/lib/build/); the search starts in src/.
    const sub = await makeTempDir();
    try {
      await writeTree(sub, {
        ".gitignore": "*.log\n/src/build/\n",
        "src/a.ts": "hello\n",
        "src/b.log": "hello\n",
        "src/build/c.ts": "hello\n",
        "src/lib/build/d.ts": "hello\n",
      });
      const search = (input: Record<string, unknown>) => callTool(GrepTool, input, searchContext(sub));
      for (const filter of [{}, { glob: "*.{ts,log}" }, { glob: "!*.md" }]) {
        const output = await search({ pattern: "hello", path: join(sub, "src"), ...filter });
        expect({ filter, found: [...output.filenames].sort() }).toEqual({
          filter,
          found: [join(sub, "src/a.ts"), join(sub, "src/lib/build/d.ts")],
        });
      }
    } finally {
      await removeDir(sub);
    }
  });
});

describe("Grep: patterns that need PCRE2 run with it", () => {
  it.each([
    ["look-ahead", "\\w+(?= MATCH)", ["3:three MATCH", "8:eight MATCH"]],
    ["look-behind", "(?<=thr)ee", ["3:three MATCH"]],
    ["negative look-ahead", "^(?!.*MATCH)t\\w+", ["2:two"]],
    ["backreference", "(e)\\1", ["3:three MATCH"]],
  ])("%s: %s", async (_name, pattern, lines) => {
    const output = await grep({ pattern, path: abs("ctx.txt"), output_mode: "content" });
    expect(output.content?.split("\n")).toEqual(lines);
  });
});

describe("Grep errors", () => {
  it("reports an invalid regex with ripgrep's message, and no flag Grep does not have", async () => {
    const error = await grepError({ pattern: "foo(", output_mode: "content" });
    expect(error.code).toBe("invalid_input");
    expect(error.message).toMatch(/regex parse error/);
    expect(error.message).toMatch(/unclosed group/);
    expect(error.message).not.toMatch(/--pcre2|~~~|PCRE2 regex engine error/);
  });

  it("reports an unknown file type", async () => {
    const error = await grepError({ pattern: "x", type: "nosuchtype" });
    expect(error.code).toBe("invalid_input");
    expect(error.message).toMatch(/nosuchtype/);
  });

  it("rejects a missing path in validation and in the call", async () => {
    const validation = await GrepTool.validateInput!({ pattern: "x", path: "nope/missing" }, ctx());
    expect(validation).toEqual({
      result: false,
      errorCode: "file_not_found",
      message: expect.stringContaining(`Path does not exist: ${abs("nope/missing")}`),
    });
    const error = await grepError({ pattern: "x", path: "nope/missing" });
    expect(error.code).toBe("file_not_found");
    expect(error.message).toContain("current working directory");
  });

  it("refuses a device, which would never end", async () => {
    const error = await grepError({ pattern: "x", path: "/dev/zero" });
    expect(error.code).toBe("unsupported_file");
  });

  it("is cancelled by the call's abort signal, before or during the search", async () => {
    const context = ctx();
    context.abortController.abort();
    const before = await callTool(GrepTool, { pattern: "hello" }, context).catch((e: ToolError) => e);
    expect((before as ToolError).code).toBe("aborted");

    const fifoDir = await makeTempDir();
    try {
      execFileSync("mkfifo", [join(fifoDir, "pipe")]);
      const during = searchContext(fifoDir);
      const running = callTool(GrepTool, { pattern: "x", path: "pipe" }, during).catch((e: ToolError) => e);
      setTimeout(() => during.abortController.abort(), 50);
      expect(((await running) as ToolError).code).toBe("aborted");
    } finally {
      await removeDir(fifoDir);
    }
  });
});

describe("Grep input and permissions", () => {
  it("accepts numbers and booleans sent as strings, and rejects unknown keys", () => {
    expect(grepInputSchema.parse({ pattern: "x", "-C": "2", "-i": "true", head_limit: "0" })).toEqual({
      pattern: "x",
      "-C": 2,
      "-i": true,
      head_limit: 0,
    });
    expect(grepInputSchema.safeParse({ pattern: "x", bogus: 1 }).success).toBe(false);
    expect(grepInputSchema.safeParse({ pattern: "" }).success).toBe(false);
  });

  it("resolves a relative path against the session's current directory", async () => {
    const context = ctx();
    context.setAppState((state) => ({ ...state, cwd: abs("src") }));
    const output = await callTool(GrepTool, { pattern: "hello", path: "deep" }, context);
    expect(output.filenames).toEqual([abs("src/deep/d.py")]);
  });

  it("allows a search inside the working directories and asks outside them", async () => {
    const inside = await decidePermission(GrepTool, { pattern: "x", path: "src" }, ctx());
    expect(inside.behavior).toBe("allow");
    const out = await decidePermission(GrepTool, { pattern: "x", path: outside }, ctx());
    expect(out.behavior).toBe("ask");
    expect(out.behavior === "ask" && out.decisionReason).toEqual({
      type: "tool",
      reason: `${outside} is outside the working directories`,
      check: "outside-working-dirs",
    });
    // A symlink inside the project that points outside is outside.
    expect((await decidePermission(GrepTool, { pattern: "x", path: "linked" }, ctx())).behavior).toBe("ask");
    const added = searchContext(root, { additionalDirectories: [outside] });
    expect((await decidePermission(GrepTool, { pattern: "x", path: outside }, added)).behavior).toBe("allow");
    // A Read allow rule covering the folder allows it too (the engine applies it to the tool's passthrough).
    const suggestion = out.behavior === "ask" ? out.suggestions : undefined;
    expect(suggestion).toEqual([{ behavior: "allow", rule: `Read(/${outside})`, destination: "session" }]);
    const ruled = searchContext(root, { allow: [`Read(/${outside})`] });
    for (const path of [outside, join(outside, "o.txt")])
      expect(await decidePermission(GrepTool, { pattern: "x", path }, ruled)).toMatchObject({
        behavior: "allow",
        decisionReason: { type: "rule" },
      });
  });

  it("declares itself read-only, concurrency-safe and governed by Read rules", () => {
    const input = { pattern: "x", path: "src" };
    expect(GrepTool.isReadOnly(input)).toBe(true);
    expect(GrepTool.isConcurrencySafe(input)).toBe(true);
    expect(GrepTool.isDestructive(input)).toBe(false);
    expect(GrepTool.permissionRuleNames).toEqual(["Read"]);
    expect(GrepTool.getPath!(input)).toBe("src");
    expect(GrepTool.maxResultSizeChars).toBe(20_000);
  });

  it("has a prompt loaded from prompt.md", async () => {
    const prompt = await GrepTool.prompt({ tools: [] });
    expect(prompt).toMatch(/ripgrep/);
    expect(prompt).toMatch(/head_limit/);
  });
});

describe("Grep: rg's threads", () => {
  const folder = { absolute: "/p", isDirectory: true, cwd: "/p", target: ".", denyPatterns: [] };
  const threadsOf = (args: string[]) => args.filter((arg) => arg.startsWith("--threads="));

  it("content output leaves a core to the process reading it", () => {
    const expected = `--threads=${Math.max(1, availableParallelism() - 1)}`;
    expect(threadsOf(grepArgs({ pattern: "x", output_mode: "content" }, folder, []))).toEqual([expected]);
  });

  it("file lists and counts keep rg's own choice (little crosses the pipe)", () => {
    expect(threadsOf(grepArgs({ pattern: "x" }, folder, []))).toEqual([]);
    expect(threadsOf(grepArgs({ pattern: "x", output_mode: "count" }, folder, []))).toEqual([]);
  });
});
