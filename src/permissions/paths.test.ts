// Where a path really is: segment boundaries, symlinks (also dangling ones), `..` after a link, loops.
import {
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getEmptyToolPermissionContext } from "../tool/context.ts";
import {
  callPath,
  isInWorkingDirectories,
  isPathWithin,
  pathForms,
  pathResolutionScope,
  protectedPathReason,
  resolveSymlinks,
  systemFolderOf,
  withPathResolutionCache,
} from "./paths.ts";

let root: string;
let project: string;
let outside: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "keel-paths-")));
  project = join(root, "proj");
  outside = join(root, "outside");
  mkdirSync(join(project, "src"), { recursive: true });
  mkdirSync(join(outside, "deep"), { recursive: true });
  mkdirSync(join(root, "proj_evil"));
  writeFileSync(join(outside, "secret.txt"), "s");
  symlinkSync(join(outside, "deep"), join(project, "logs"));
  symlinkSync(join(outside, "created-later"), join(project, "dangling"));
  symlinkSync("loop-b", join(project, "loop-a"));
  symlinkSync("loop-a", join(project, "loop-b"));
  symlinkSync("src", join(project, "inner"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("paths", () => {
  it("checks containment by segment", () => {
    expect(isPathWithin("/proj/a", "/proj")).toBe(true);
    expect(isPathWithin("/proj", "/proj")).toBe(true);
    expect(isPathWithin("/proj_evil/a", "/proj")).toBe(false);
    expect(isPathWithin("/pro", "/proj")).toBe(false);
  });

  const inside: Array<[string, boolean]> = [
    ["src/a.ts", true],
    ["inner/a.ts", true], // a link that stays inside
    ["new/dir/file.txt", true], // not there yet
    ["../proj_evil/x", false], // sibling with the same prefix
    ["../outside/secret.txt", false],
    ["logs/x.txt", false], // a link pointing outside
    ["logs/../secret.txt", false], // `..` after the link is the link target's parent
    ["dangling", false], // writing through it creates its target outside
    ["loop-a/x", false], // a loop resolves nowhere
    ["/etc/passwd", false],
  ];
  it.each(inside)("%s inside the project: %s", (path, expected) => {
    const context = getEmptyToolPermissionContext(project);
    expect(isInWorkingDirectories(path, context, project)).toBe(expected);
  });

  it("resolves the physical path", () => {
    expect(pathForms("logs/../secret.txt", project, "/home/u").resolved).toBe(join(outside, "secret.txt"));
    expect(pathForms("logs/../secret.txt", project, "/home/u").given).toBe(join(project, "secret.txt"));
    expect(resolveSymlinks(join(project, "dangling"))).toBe(join(outside, "created-later"));
    expect(resolveSymlinks(join(project, "src/../new.txt"))).toBe(join(project, "new.txt"));
  });

  it("resolves the same inside a cache scope, where each component is looked at once", () => {
    const paths = [
      "src/a.ts",
      "inner/a.ts",
      "inner/../x",
      "logs/../secret.txt",
      "logs/x.txt",
      "dangling",
      "dangling/../y",
      "loop-a/x",
      "loop-b",
      "new/dir/../file.txt",
      "../outside/deep/../secret.txt",
    ].map((path) => `${project}/${path}`);
    const plain = paths.map((path) => resolveSymlinks(path));
    const cached = withPathResolutionCache(() => [
      ...paths.map((path) => resolveSymlinks(path)),
      ...paths.map((path) => resolveSymlinks(path)),
    ]);
    expect(cached).toEqual([...plain, ...plain]);
    expect(plain[2]).toBe(join(project, "x"));
    expect(plain[3]).toBe(join(outside, "secret.txt"));
  });

  it("remembers a resolution within one call's scope only: a link changed after it is seen", async () => {
    const link = join(project, "moving");
    symlinkSync(join(outside, "deep"), link);
    try {
      const scope = pathResolutionScope();
      const first = scope.run(() => resolveSymlinks(join(link, "f.txt")));
      unlinkSync(link);
      symlinkSync(join(project, "src"), link);
      // Inside the scope, across awaits too, the call's judgement sees the disk as at its first look.
      const inScope = await scope.run(async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return resolveSymlinks(join(link, "f.txt"));
      });
      expect([first, inScope]).toEqual([join(outside, "deep/f.txt"), join(outside, "deep/f.txt")]);
      // Outside it, and after it closed, the link is resolved afresh.
      expect(resolveSymlinks(join(link, "f.txt"))).toBe(join(project, "src/f.txt"));
      scope.close();
      expect(scope.run(() => resolveSymlinks(join(link, "f.txt")))).toBe(join(project, "src/f.txt"));
      // A new scope (the next call) sees the change.
      expect(pathResolutionScope().run(() => resolveSymlinks(join(link, "f.txt")))).toBe(
        join(project, "src/f.txt"),
      );
    } finally {
      unlinkSync(link);
    }
  });

  it.each([
    [".git/config", true],
    [".claude/settings.json", true],
    ["sub/.bashrc", true],
    [".mcp.json", true],
    ["src/app.ts", false],
    ["gitignore.txt", false],
  ])("protected %s: %s", (path, expected) => {
    expect(protectedPathReason(path, project, getEmptyToolPermissionContext(project)) !== undefined).toBe(
      expected,
    );
  });
});

describe("the caller's home, never Keel's own", () => {
  const caller = { home: "/home/caller", tmpDir: "/scratch", env: { HOME: "/home/caller" } };
  const policy = getEmptyToolPermissionContext("/work/project", caller);

  it.each([
    ["~", "/home/caller"],
    ["~/notes.txt", "/home/caller/notes.txt"],
    ["rel/x", "/work/project/rel/x"],
  ])("%s is %s", (path, expected) => {
    expect(callPath(path, { cwd: "/work/project", toolPermissionContext: policy })).toBe(expected);
  });

  it("takes the temp folder of the caller for the system-folder exemption", () => {
    expect(systemFolderOf("/scratch/x", caller.tmpDir)).toBeUndefined();
    expect(systemFolderOf("/var/lib/x", caller.tmpDir)).toBe("/var");
    expect(systemFolderOf("/var/tmp/x", caller.tmpDir)).toBeUndefined();
  });
});
