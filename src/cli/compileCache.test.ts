// bin/compileCache.js: the launcher keeps Node's compiled-code cache in Keel's private per-user folder,
// one folder per build, and a new build's first start removes all but the two most recent other builds'.
// Real starts of the real launcher with TMPDIR in a temp folder; needs `npm run build` (dist/).
import { spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, readdirSync, renameSync, symlinkSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempFolderForTest } from "../tool/testing/tempFolder.ts";

const launcher = join(import.meta.dirname, "../../bin/keel.js");
const uid = process.getuid?.() ?? 0;

function keelVersion(tmp: string): string {
  const run = spawnSync(process.execPath, [launcher, "--version"], {
    env: { PATH: process.env.PATH ?? "", HOME: tmp, TMPDIR: tmp },
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return run.stdout;
}

describe.skipIf(process.platform === "win32")("the launcher's compile cache", () => {
  it("lives in a private folder of this build, and keeps two other builds at most", () => {
    const tmp = tempFolderForTest("keel-compile-cache-");
    keelVersion(tmp);
    const caches = join(tmp, `keel-${uid}`, "compile-cache");
    const [build, ...more] = readdirSync(caches);
    expect(more).toEqual([]);
    expect(lstatSync(join(caches, String(build))).mode & 0o777).toBe(0o700);
    // Node wrote this start's compiled code there (one folder per Node version and flags, then files).
    const [nodeFolder] = readdirSync(join(caches, String(build)));
    expect(readdirSync(join(caches, String(build), String(nodeFolder))).length).toBeGreaterThan(0);

    // Four older builds' folders, made at different times; then this build starts as a new one would.
    for (const [index, name] of ["old-1", "old-2", "old-3", "old-4"].entries()) {
      mkdirSync(join(caches, name), { mode: 0o700 });
      const made = new Date(Date.now() - (10 - index) * 60_000);
      utimesSync(join(caches, name), made, made);
    }
    renameSync(join(caches, String(build)), join(caches, "old-0"));
    utimesSync(join(caches, "old-0"), new Date(0), new Date(0));
    keelVersion(tmp);
    expect(readdirSync(caches).sort()).toEqual([String(build), "old-3", "old-4"].sort());
  });

  it("caches nothing in a folder that is not this user's own, and still starts", () => {
    const tmp = tempFolderForTest("keel-compile-cache-");
    const elsewhere = join(tmp, "elsewhere");
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, join(tmp, `keel-${uid}`));
    expect(keelVersion(tmp)).toMatch(/\d+\.\d+\.\d+/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
