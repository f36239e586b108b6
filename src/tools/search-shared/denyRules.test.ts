// Files that Read(...) deny rules cover must never show up in any search result, through any tool,
// mode or parameter: not their content, not their names.
import { symlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decidePermission } from "../../permissions/engine.ts";
import type { ToolError } from "../../tool/errors.ts";
import { GlobTool } from "../glob/GlobTool.ts";
import { GrepTool } from "../grep/GrepTool.ts";
import { LSTool } from "../ls/LSTool.ts";
import { callToolText, makeTempDir, removeDir, searchContext, writeTree } from "./testing.ts";

const DENY = ["Read(secret.txt)", "Read(**/.env)", "Read(./keys/*.pem)", "Read(./private/**)"];
const DENIED_NAMES = ["secret.txt", "SECRET.TXT", ".env", "id.pem", "private"];

let parent: string;
let project: string;
let linkToProject: string;

beforeAll(async () => {
  parent = await makeTempDir();
  project = join(parent, "project");
  await writeTree(project, {
    "secret.txt": "TOPSECRET alpha\n",
    "public.txt": "public alpha\n",
    "config/.env": "TOPSECRET env\n",
    "config/app.ts": "public alpha\n",
    "keys/id.pem": "TOPSECRET key\n",
    "keys/readme.md": "public alpha\n",
    "docs/SECRET.TXT": "TOPSECRET upper case\n",
    "nested/deep/secret.txt": "TOPSECRET nested\n",
    "nested/deep/ok.txt": "public alpha\n",
    "private/notes.md": "TOPSECRET private\n",
  });
  linkToProject = join(await makeTempDir("keel-link-"), "via-link");
  await symlink(project, linkToProject);
});

afterAll(async () => {
  await removeDir(parent);
  await removeDir(dirname(linkToProject));
});

const ctx = (deny: readonly string[] = DENY) => searchContext(project, { deny });

function expectNoLeak(text: string): void {
  expect(text).not.toContain("TOPSECRET");
  for (const name of DENIED_NAMES) expect(text).not.toContain(name);
}

describe("Read deny rules exclude files from every search", () => {
  it.each([
    ["Grep content", { pattern: "TOPSECRET|alpha", output_mode: "content" }],
    ["Grep content with context", { pattern: "alpha", output_mode: "content", "-C": 5 }],
    ["Grep files_with_matches", { pattern: "TOPSECRET|alpha" }],
    ["Grep count", { pattern: "TOPSECRET|alpha", output_mode: "count" }],
    [
      "Grep with a glob naming the file",
      { pattern: "TOPSECRET", output_mode: "content", glob: "secret.txt" },
    ],
    ["Grep -i multiline", { pattern: "topsecret.*", output_mode: "content", "-i": true, multiline: true }],
    ["Grep in a subfolder", { pattern: "TOPSECRET|alpha", output_mode: "content", path: "nested" }],
    ["Grep in keys/", { pattern: "TOPSECRET|alpha", output_mode: "content", path: "keys" }],
    ["Grep from above the project", { pattern: "TOPSECRET|alpha", output_mode: "content", path: ".." }],
    [
      "Grep through a symlink to the project",
      { pattern: "TOPSECRET|alpha", output_mode: "content", path: "LINK" },
    ],
  ] as Array<[string, Record<string, unknown>]>)("%s", async (_name, input) => {
    const resolved = { ...input, ...(input.path === "LINK" ? { path: linkToProject } : {}) };
    const text = await callToolText(GrepTool, resolved, ctx());
    expectNoLeak(text);
    if (String(input.pattern).includes("alpha")) expect(text).toMatch(/alpha|public/);
  });

  it("still finds the files next to denied ones", async () => {
    const text = await callToolText(GrepTool, { pattern: "alpha", output_mode: "content" }, ctx());
    for (const file of ["public.txt", "config/app.ts", "keys/readme.md", "nested/deep/ok.txt"])
      expect(text).toContain(join(project, file));
  });

  it.each([
    ["Glob everything", { pattern: "**/*" }],
    ["Glob naming the file", { pattern: "**/secret.txt" }],
    ["Glob hidden files", { pattern: "**/.*" }],
    ["Glob under private/", { pattern: "private/**" }],
    ["Glob from above the project", { pattern: "**/*", path: ".." }],
  ])("%s", async (_name, input) => {
    const text = await callToolText(GlobTool, input, ctx());
    expectNoLeak(text);
  });

  it("Glob still lists the rest", async () => {
    const text = await callToolText(GlobTool, { pattern: "**/*" }, ctx());
    expect(text.split("\n").sort()).toEqual(
      ["config/app.ts", "keys/readme.md", "nested/deep/ok.txt", "public.txt"]
        .map((file) => join(project, file))
        .sort(),
    );
  });

  it.each([
    ["LS", {}],
    ["LS of a subfolder", { path: "keys" }],
    ["LS from above", { path: ".." }],
  ])("%s", async (_name, input) => {
    const text = await callToolText(LSTool, input, ctx());
    expect(text).not.toMatch(/secret\.txt|SECRET\.TXT|\.env\b|id\.pem|notes\.md/);
    expect(text).toContain("readme.md");
  });

  const tools = { Grep: GrepTool, Glob: GlobTool, LS: LSTool } as const;

  it.each([
    ["Grep", { pattern: "TOPSECRET", path: "secret.txt" }],
    ["Grep", { pattern: "TOPSECRET", path: "nested/deep/secret.txt" }],
    ["Grep", { pattern: "TOPSECRET", path: "docs/SECRET.TXT" }],
  ] as const)("refuses a search rooted at a denied file: %s %j", async (name, input) => {
    const tool = tools[name] as typeof GrepTool;
    const error = (await callToolText(tool, input, ctx()).catch((e: unknown) => e)) as ToolError;
    expect(error.code).toBe("permission_denied");
    expect(error.message).toMatch(/denied by the permission rule Read\(/);
    expect(error.message).not.toContain("TOPSECRET");
  });

  it.each([
    ["Grep", { pattern: "TOPSECRET", path: "private", output_mode: "content" }, "No matches found"],
    ["Glob", { pattern: "**/*", path: "private" }, "No files found"],
    ["LS", { path: "private" }, undefined],
  ] as const)("finds nothing in a folder whose contents are denied: %s", async (name, input, expected) => {
    const text = await callToolText(tools[name] as typeof GrepTool, input, ctx());
    expectNoLeak(text.replace(`${project}/private`, ""));
    expect(text).not.toContain("notes.md");
    if (expected) expect(text).toBe(expected);
    else expect(text).toBe(`- ${project}/private/`);
  });

  it("refuses every search under a blanket Read deny", async () => {
    for (const [tool, input] of [
      [GrepTool, { pattern: "alpha" }],
      [GlobTool, { pattern: "**/*" }],
      [LSTool, {}],
    ] as const) {
      const error = (await callToolText(tool as typeof GrepTool, input, ctx(["Read"])).catch(
        (e: unknown) => e,
      )) as ToolError;
      expect(error.code).toBe("permission_denied");
    }
  });

  it("is denied by the permission engine before the call when the path itself is denied", async () => {
    const context = ctx();
    const decision = await decidePermission(GrepTool, { pattern: "x", path: "secret.txt" }, context);
    expect(decision.behavior).toBe("deny");
    const allowed = await decidePermission(GrepTool, { pattern: "x", path: "keys" }, context);
    expect(allowed.behavior).toBe("allow");
  });
});
