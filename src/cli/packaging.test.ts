// Keel as npm installs it (a packed tarball, not a clone): what the package holds, zod as a peer
// dependency, and what an old Node is told when there is no pinned Node beside the package.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const repo = join(import.meta.dirname, "../..");
const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function oldNode(): string | undefined {
  for (const candidate of ["/usr/bin/node", "/usr/local/bin/node"]) {
    if (!existsSync(candidate)) continue;
    try {
      const version = execFileSync(candidate, ["-p", "process.versions.node"], { encoding: "utf8" });
      if (Number(version.split(".")[0]) < 22) return candidate;
    } catch {}
  }
  return undefined;
}

/** bin/ and package.json as a package install lays them out (no node_modules/node), plus extras. */
function installedLayout(extraDirs: string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), "keel-installed-"));
  temps.push(dir);
  cpSync(join(repo, "bin"), join(dir, "bin"), { recursive: true });
  cpSync(join(repo, "package.json"), join(dir, "package.json"));
  for (const extra of extraDirs) mkdirSync(join(dir, extra));
  return dir;
}

describe("the npm package", () => {
  it("holds the launcher, its relaunch helper and the build, not the sources", () => {
    const [pack] = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
        cwd: repo,
        encoding: "utf8",
      }),
    ) as Array<{ files: Array<{ path: string }> }>;
    const files = pack!.files.map((file) => file.path);
    expect(files).toEqual(
      expect.arrayContaining(["bin/keel.js", "bin/relaunch.js", "package.json", "README.md"]),
    );
    expect(files.some((path) => path.startsWith("dist/"))).toBe(true);
    expect(files.some((path) => path.startsWith("src/") || path.startsWith("node_modules/"))).toBe(false);
  });

  it("declares zod 4 as a peer dependency (the caller's zod builds the schemas Keel reads)", () => {
    const manifest = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as Record<
      string,
      Record<string, string>
    >;
    expect(manifest.peerDependencies?.zod).toMatch(/^\^4\./);
    expect(manifest.dependencies?.zod).toBeUndefined();
  });
});

describe.skipIf(!oldNode())("installed from npm, started by Node 20", () => {
  it("says what helps (Node >= 22), not to run npm install in a keel folder", () => {
    const dir = installedLayout();
    const run = spawnSync(oldNode()!, [join(dir, "bin/keel.js"), "--version"], { encoding: "utf8" });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(
      /^keel needs Node\.js 22 or newer; this is v20\.[\d.]+\. Install Node 22 or newer/,
    );
    expect(run.stderr).toMatch(/put it first on PATH\.\n$/);
    expect(run.stderr).not.toMatch(/npm install/);
  });

  it("in a clone without its pinned Node yet, also names npm install", () => {
    const dir = installedLayout(["src"]);
    const run = spawnSync(oldNode()!, [join(dir, "bin/keel.js"), "--version"], { encoding: "utf8" });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/or run `npm install` in the keel folder to get the Node 24 it pins/);
  });
});
