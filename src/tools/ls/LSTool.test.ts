import { symlink } from "node:fs/promises";
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
  writeTree,
} from "../search-shared/testing.ts";
import { LSTool } from "./LSTool.ts";

let root: string;
let outside: string;

beforeAll(async () => {
  root = await makeTempDir();
  outside = await makeTempDir("keel-outside-");
  await writeTree(root, {
    "b.ts": "",
    "a.md": "",
    ".env.example": "",
    ".gitignore": "*.log\n!keep.log\n/build/\n",
    "debug.log": "",
    "keep.log": "",
    "build/out.js": "",
    "src/index.ts": "",
    "src/util/x.ts": "",
    "src/util/.gitignore": "generated.ts\n",
    "src/util/generated.ts": "",
    "src/build/kept.ts": "",
    "empty/": "",
    ".git/config": "",
    ".hg/store": "",
    "dist/bundle.js": "",
    // A write in progress (or killed): Keel's temporary copy and lock, never listed.
    ".b.ts.4242.0a1b2c3d.keel-tmp": "partial",
    ".b.ts.keel-lock/": "",
  });
  await writeTree(outside, { "secret-outside.txt": "" });
  await symlink(outside, join(root, "link"));
});

afterAll(async () => {
  await removeDir(root);
  await removeDir(outside);
});

const ctx = () => searchContext(root);
const ls = (input: Record<string, unknown>, context = ctx()) => callToolText(LSTool, input, context);

describe("LS", () => {
  it("prints an indented tree, folders marked, hidden files in, VCS folders and gitignored entries out", async () => {
    expect(await ls({})).toBe(
      [
        `- ${root}/`,
        "  - .env.example",
        "  - .gitignore",
        "  - a.md",
        "  - b.ts",
        "  - dist/",
        "    - bundle.js",
        "  - empty/",
        "  - keep.log",
        "  - link",
        "  - src/",
        "    - build/",
        "      - kept.ts",
        "    - index.ts",
        "    - util/",
        "      - .gitignore",
        "      - x.ts",
      ].join("\n"),
    );
  });

  it("leaves out what the ignore globs name, in .gitignore syntax", async () => {
    const text = await ls({ ignore: ["dist/", "*.md", "/src/build", ".*"] });
    expect(text).not.toMatch(/dist\/|a\.md|\.env\.example|\.gitignore|kept\.ts/);
    expect(text).toContain("  - b.ts");
    expect(text).toContain("    - util/");
  });

  it("lists a subfolder, relative to the current directory, with the ignore files above it applied", async () => {
    const context = ctx();
    context.setAppState((state) => ({ ...state, cwd: join(root, "src") }));
    // /build/ in the root's .gitignore is anchored at the root, so src/build stays.
    expect(await ls({ path: "." }, context)).toBe(
      [
        `- ${root}/src/`,
        "  - build/",
        "    - kept.ts",
        "  - index.ts",
        "  - util/",
        "    - .gitignore",
        "    - x.ts",
      ].join("\n"),
    );
  });

  it("lists a folder that an ignore file above it excludes, as ripgrep does for the folder it is given", async () => {
    const text = await ls({ path: "build" });
    expect(text).toBe(`- ${root}/build/\n  - out.js`);
  });

  it("does not follow symbolic links", async () => {
    const output = await callTool(LSTool, {}, ctx());
    expect(output.entries.find((entry) => entry.path === "link")).toEqual({
      path: "link",
      isDirectory: false,
    });
    expect(JSON.stringify(output)).not.toContain("secret-outside");
  });

  it("caps the listing at 1,000 entries, top levels first, and says so", async () => {
    const big = await makeTempDir();
    try {
      const files: Record<string, string> = {};
      for (const folder of ["a", "b", "c", "d", "e"])
        for (let i = 0; i < 300; i++) files[`${folder}/f${String(i).padStart(3, "0")}.txt`] = "";
      files["z-top.txt"] = "";
      await writeTree(big, files);
      const output = await callTool(LSTool, {}, searchContext(big));
      expect(output.entries).toHaveLength(1_000);
      expect(output.truncated).toBe(true);
      // Breadth-first: every top-level entry is in, whatever the cap cuts below.
      for (const top of ["a", "b", "c", "d", "e", "z-top.txt"])
        expect(output.entries.some((entry) => entry.path === top)).toBe(true);
      const text = await ls({}, searchContext(big));
      expect(text.startsWith(`There are more than 1000 files and folders under ${big}.`)).toBe(true);
      expect(text).toContain("List a subfolder with LS");
    } finally {
      await removeDir(big);
    }
  });

  it("rejects a missing path and a file", async () => {
    expect(await LSTool.validateInput!({ path: "nope" }, ctx())).toMatchObject({
      result: false,
      errorCode: "file_not_found",
    });
    expect(await LSTool.validateInput!({ path: "b.ts" }, ctx())).toMatchObject({
      result: false,
      errorCode: "not_a_directory",
    });
    const error = (await callTool(LSTool, { path: "b.ts" }, ctx()).catch((e: unknown) => e)) as ToolError;
    expect(error.code).toBe("not_a_directory");
    const missing = (await callTool(LSTool, { path: "nope" }, ctx()).catch((e: unknown) => e)) as ToolError;
    expect(missing.code).toBe("file_not_found");
  });

  it("is cancelled by an aborted signal", async () => {
    const context = ctx();
    context.abortController.abort();
    const error = (await callTool(LSTool, {}, context).catch((e: unknown) => e)) as ToolError;
    expect(error.code).toBe("aborted");
  });

  it("asks outside the working directories and declares itself read-only and concurrency-safe", async () => {
    expect((await decidePermission(LSTool, {}, ctx())).behavior).toBe("allow");
    const out = await decidePermission(LSTool, { path: outside }, ctx());
    expect(out).toMatchObject({
      behavior: "ask",
      decisionReason: { type: "tool", check: "outside-working-dirs" },
    });
    expect(LSTool.isReadOnly({})).toBe(true);
    expect(LSTool.isConcurrencySafe({})).toBe(true);
    expect(LSTool.permissionRuleNames).toEqual(["Read"]);
  });
});
