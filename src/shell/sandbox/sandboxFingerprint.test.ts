import {
  appendFileSync,
  chmodSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type Fingerprint,
  fingerprintHolds,
  globRoot,
  MAX_WATCHED_DIRS,
  RACY_MS,
  takeFingerprint,
} from "./sandboxFingerprint.ts";

let root: string;
let project: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "keel-fingerprint-")));
  project = join(root, "project");
  mkdirSync(join(project, "src", "lib", "deep", "deeper"), { recursive: true });
  mkdirSync(join(project, "node_modules", "pkg"), { recursive: true });
  writeFileSync(join(project, "src", "index.ts"), "");
  writeFileSync(join(project, ".gitignore"), "dist/\n");
  // Old enough for change times to vouch for the listings, as on a project that is not being edited.
  ageTree(project);
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const LONG_AGO = Date.now() / 1000 - 3600;

function ageTree(dir: string): void {
  for (const path of [
    dir,
    join(dir, ".gitignore"),
    join(dir, "src"),
    join(dir, "src", "lib"),
    join(dir, "src", "lib", "deep"),
    join(dir, "node_modules"),
  ])
    utimesSync(path, LONG_AGO, LONG_AGO);
}

/** A fingerprint taken as if the tree had been quiet for a while (change times count as old). */
function take(inputs: Partial<Parameters<typeof takeFingerprint>[0]> = {}): Fingerprint {
  const fingerprint = takeFingerprint(
    { chains: [join(project, ".keel")], scanRoot: project, globRoots: [], ...inputs },
    Date.now() + 2 * RACY_MS,
  );
  if (!fingerprint) throw new Error("no fingerprint");
  return fingerprint;
}

const holds = (fingerprint: Fingerprint) =>
  fingerprintHolds(fingerprint, undefined, Date.now() + 2 * RACY_MS);

describe("sandbox fingerprint", () => {
  it("holds while nothing the wrap read changes, ordinary files coming and going included", () => {
    const fingerprint = take();
    writeFileSync(join(project, "README.md"), "x");
    writeFileSync(join(project, "src", "lib", "new.ts"), "x");
    appendFileSync(join(project, "src", "index.ts"), "more");
    expect(holds(fingerprint)).toBe(true);
  });

  // Each change makes a fresh wrap protect something (or expose something) a stale one would not.
  const changes: Array<[string, () => void]> = [
    ["a protected name created in the scanned folder", () => writeFileSync(join(project, ".bashrc"), "")],
    ["a protected name two levels down", () => mkdirSync(join(project, "src", "lib", ".vscode"))],
    ["a new subfolder (a level the scan lists)", () => mkdirSync(join(project, "src", "tools"))],
    ["a protected path that did not exist", () => mkdirSync(join(project, ".keel"))],
    ["an ignore file edited", () => appendFileSync(join(project, ".gitignore"), "!dist/.bashrc\n")],
    ["an ignore file added", () => writeFileSync(join(project, "src", ".ignore"), "x\n")],
    ["a folder's permissions", () => chmodSync(join(project, "src"), 0o700)],
  ];
  it.each(changes)("notices %s", (_name, change) => {
    const fingerprint = take();
    change();
    expect(holds(fingerprint)).toBe(false);
  });

  it("does not watch below the scan's depth, nor inside node_modules", () => {
    const fingerprint = take();
    writeFileSync(join(project, "src", "lib", "deep", ".bashrc"), "");
    writeFileSync(join(project, "node_modules", "pkg", ".bashrc"), "");
    expect(holds(fingerprint)).toBe(true);
  });

  it("notices a change made right after a recent one, whatever the change times say", () => {
    // Just modified: its change time cannot vouch, so the listing itself is compared.
    writeFileSync(join(project, "src", "touched"), "");
    const fingerprint = takeFingerprint(
      { chains: [], scanRoot: project, globRoots: [] },
      Date.now(),
    ) as Fingerprint;
    writeFileSync(join(project, "src", ".zshrc"), "");
    expect(fingerprintHolds(fingerprint)).toBe(false);
  });

  it("watches every folder a read-deny glob is expanded in, and links' targets", () => {
    mkdirSync(join(project, "src", "lib", "deep", "deeper", "keys"), { recursive: true });
    symlinkSync(join(project, "src"), join(project, "link"));
    const glob = globRoot(join(project, "**", "*.pem"));
    expect(glob).toEqual({ dir: project, depth: Number.POSITIVE_INFINITY });
    const fingerprint = take({ globRoots: [glob!] });
    writeFileSync(join(project, "src", "lib", "deep", "deeper", "keys", "a.pem"), "");
    expect(holds(fingerprint)).toBe(false);

    const again = take({ globRoots: [glob!] });
    unlinkSync(join(project, "link"));
    symlinkSync(join(project, "node_modules"), join(project, "link"));
    expect(holds(again)).toBe(false);
  });

  it("reads a glob's depth from its pattern", () => {
    expect(globRoot("/p/*.pem")).toEqual({ dir: "/p", depth: 1 });
    expect(globRoot("/p/a/*/b.txt")).toEqual({ dir: "/p/a", depth: 2 });
    expect(globRoot("/p/a/b.txt")).toBeUndefined();
  });

  it("gives up on a tree with more folders than is worth re-checking", () => {
    const wide = join(project, "wide");
    for (let i = 0; i <= MAX_WATCHED_DIRS; i++) mkdirSync(join(wide, `d${i}`), { recursive: true });
    expect(
      takeFingerprint({ chains: [], scanRoot: project, globRoots: [{ dir: wide, depth: 2 }] }),
    ).toBeUndefined();
  });

  it("lets a running sandbox's mount point stand where nothing stood", () => {
    const fingerprint = take();
    const placeholder = join(project, ".keel");
    writeFileSync(placeholder, "");
    chmodSync(placeholder, 0o444);
    expect(holds(fingerprint)).toBe(false);
    expect(fingerprintHolds(fingerprint, (path) => path === placeholder, Date.now() + 2 * RACY_MS)).toBe(
      true,
    );
  });
});
