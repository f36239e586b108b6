// The parents' ignore rules restated relative to the search root must list exactly what rg lists when
// it reads them itself: checked on generated trees with real rg, and rule by rule on a table.
import { spawnSync } from "node:child_process";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withGlobIgnoreFile, withSearchIgnores } from "./ignoreFile.ts";
import { parentIgnoreRules, restateRule } from "./parentIgnores.ts";
import { ripgrepPath } from "./ripgrep.ts";
import { commonSearchArgs } from "./searchArgs.ts";
import { makeTempDir, removeDir, writeTree } from "./testing.ts";

describe("restateRule", () => {
  // The rule is in a file two folders above the root: base/mid/root.
  const fromBase = ["mid", "root"];
  it.each([
    // Rules that match at any depth stay as they are.
    ["*.log", ["*.log"]],
    ["build/", ["build/"]],
    ["**/keep.md", ["**/keep.md"]],
    ["f\\ ", ["f\\ "]],
    ["mid", ["mid"]],
    // Anchored rules through the root are anchored at it.
    ["/mid/root/sub/", ["/sub/"]],
    ["mid/root/*.txt", ["/*.txt"]],
    ["mid/root/a/**/x", ["/a/**/x"]],
    ["mid/root/**", ["/**"]],
    ["mid/root/build   ", ["/build"]],
    // Rules naming the root, a folder above it or a path beside it match nothing rg checks.
    ["mid/root", []],
    ["/mid/root/", []],
    ["/mid", []],
    ["mid/other/x", []],
    ["other/root/x", []],
    ["/root/sub", []],
    // A pattern where the root's path is, or a re-include: left to rg.
    ["mid/*/sub", undefined],
    ["*/root/x", undefined],
    ["**/root/x", undefined],
    ["mid/ro?t/x", undefined],
    ["mid/{root,x}/a", undefined],
    ["mid/r[o]ot", undefined],
    ["!keep.md", undefined],
    ["!/mid/root/x", undefined],
  ])("restates %j as %j", (line, expected) => {
    expect(restateRule(line, fromBase)).toEqual(expected);
  });
});

/** A tiny seeded generator, so a failing tree can be made again from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
const some = <T>(next: () => number, items: readonly T[], count: number): T[] =>
  Array.from({ length: count }, () => pick(next, items));

const FOLDERS = ["sub", "build", "a", "x", "mid", "root", "node_modules", ".hidden"];
const FILES = ["f.txt", "f.log", "keep.md", "g.md", "s.ts", "root", "mid", "build", "f "];
const PARENT_RULES = [
  "*.log",
  "*.md",
  "build/",
  "sub",
  "x/",
  "keep.md",
  "**/a",
  "node_modules/",
  "f.*",
  "g.md   ",
  "f\\ ",
  "# a comment",
  "",
  "/mid/root/sub/",
  "mid/root/*.txt",
  "mid/root/build",
  "/mid/root/a/x/",
  "mid/root/sub/**",
  "mid/root/**/g.md",
  "mid/root",
  "mid",
  "/root/sub/",
  "root/*.txt",
  "root/build/g.md",
  "/root",
  "root/a/**",
  "mid/other/x",
  "/sub/f.txt",
  // Left to rg: the restated rules are not used for these trees.
  "mid/*/sub",
  "!keep.md",
];
const ROOT_RULES = ["!keep.md", "*.txt", "!f.log", "build/", "sub/*.md", "!*.md", "/a/"];

/** A tree for `seed`: files below base/mid/root, rules in base, base/mid, the root and, at times, base/.git. */
function layout(seed: number): Record<string, string> {
  const next = random(seed);
  const files: Record<string, string> = {};
  const folders = new Set<string>();
  for (let count = 0; count < 30; count++) {
    const path = ["mid/root", ...some(next, FOLDERS, Math.floor(next() * 4))];
    const parents = path.map((_, index) => path.slice(0, index + 1).join("/"));
    const file = `${path.join("/")}/${pick(next, FILES)}`;
    // A name is a file or a folder, never both.
    if (parents.some((parent) => parent in files) || folders.has(file)) continue;
    for (const parent of parents) folders.add(parent);
    files[file] = "x";
  }
  const rules = (list: readonly string[], count: number) => `${some(next, list, count).join("\n")}\n`;
  files[".gitignore"] = rules(PARENT_RULES, 1 + Math.floor(next() * 4));
  files["mid/.gitignore"] = rules(PARENT_RULES, Math.floor(next() * 3));
  if (next() < 0.5) files["mid/root/.gitignore"] = rules(ROOT_RULES, 1 + Math.floor(next() * 2));
  if (next() < 0.4) files[".git/info/exclude"] = `# git's own comment\n${rules(PARENT_RULES, 1)}`;
  return files;
}

describe("parentIgnoreRules on real trees, against rg reading the parents itself", () => {
  let rg: string;
  let home: string;
  const trees: string[] = [];
  beforeAll(async () => {
    rg = await ripgrepPath();
    home = await makeTempDir("keel-home-");
  });
  afterAll(async () => {
    for (const tree of [home, ...trees]) await removeDir(tree);
  });

  const env = () => ({ PATH: process.env.PATH ?? "", HOME: home });
  /** A temp folder holding `files`, removed after the tests. */
  const newTree = async (files: Record<string, string>, prefix = "keel-parents-") => {
    const tree = await makeTempDir(prefix);
    trees.push(tree);
    await writeTree(tree, files);
    return tree;
  };
  const listing = (root: string, args: readonly string[]) => {
    const run = spawnSync(rg, [...commonSearchArgs(), "--files", ...args, "."], { cwd: root, env: env() });
    expect(run.stderr.toString()).toBe("");
    return run.stdout.toString().split("\n").filter(Boolean).sort();
  };
  const restatedListing = async (root: string, rules: readonly string[]) => {
    const ignoreFile = join(home, "restated.ignore");
    await writeFile(ignoreFile, `${rules.join("\n")}\n`);
    return listing(root, ["--no-ignore-parent", `--ignore-file=${ignoreFile}`]);
  };

  it("lists what rg lists, on 60 generated trees, and leaves to rg what it cannot restate", async () => {
    let restated = 0;
    let leftToRg = 0;
    let differsWithoutParents = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const tree = await newTree(layout(seed));
      const root = join(tree, "mid", "root");
      const rules = parentIgnoreRules(root, env());
      if (rules === undefined) {
        leftToRg++;
        continue;
      }
      restated++;
      const expected = listing(root, []);
      expect({ seed, listed: await restatedListing(root, rules) }).toEqual({ seed, listed: expected });
      if (listing(root, ["--no-ignore-parent"]).length !== expected.length) differsWithoutParents++;
    }
    // The trees exercise both answers, and the parents' rules change what is listed in most of them.
    expect(restated).toBeGreaterThan(30);
    expect(leftToRg).toBeGreaterThan(3);
    expect(differsWithoutParents).toBeGreaterThan(restated / 2);
  });

  it("carries the glob filters and the parents' rules in one file, as Glob and Grep hand them to rg", async () => {
    const tree = await newTree({
      ".gitignore": "*.log\nbuild/\n/mid/root/sub/\n",
      "mid/root/.gitignore": "!keep.log\n",
      "mid/root/a.md": "",
      "mid/root/b.log": "",
      "mid/root/keep.log": "",
      "mid/root/c.ts": "",
      "mid/root/build/d.md": "",
      "mid/root/sub/e.md": "",
      "mid/root/deep/sub/f.md": "",
    });
    const root = join(tree, "mid", "root");
    const folder = { cwd: root, isDirectory: true };
    for (const globs of [[], ["*.{md,log}"], ["!*.ts"]]) {
      const ours = await withSearchIgnores(folder, globs, async (args) => {
        expect(args[0]).toBe("--no-ignore-parent");
        return listing(root, args);
      });
      const rgOwn = await withGlobIgnoreFile(globs, async (args) => listing(root, args));
      expect({ globs, ours }).toEqual({ globs, ours: rgOwn });
    }
    expect(listing(root, [])).toEqual(["./.gitignore", "./a.md", "./c.ts", "./deep/sub/f.md", "./keep.log"]);
    // A file root is searched whatever the parents say: nothing is added.
    expect(await withSearchIgnores({ cwd: root, isDirectory: false }, [], async (args) => args)).toEqual([]);
  });

  it("leaves the parents to rg where an ignore file would rank them otherwise", async () => {
    const cases: Array<[string, Record<string, string>]> = [
      [".ignore above the root", { ".ignore": "*.log\n" }],
      [".rgignore above the root", { ".rgignore": "*.log\n" }],
      ["a worktree's .git file", { ".git": "gitdir: /elsewhere\n", ".gitignore": "*.log\n" }],
      ["a re-include", { ".gitignore": "*.log\n!keep.log\n" }],
      ["a pattern where the root's path is", { ".gitignore": "*/root/x.log\n" }],
      ["a rules file that is not UTF-8", { ".gitignore": "\u00ff\n" }],
    ];
    for (const [what, files] of cases) {
      const tree = await newTree({ ...files, "mid/root/x.log": "" });
      if (what.includes("UTF-8")) await writeFile(join(tree, ".gitignore"), Buffer.from([0xff, 0x0a]));
      expect({ what, rules: parentIgnoreRules(join(tree, "mid", "root"), env()) }).toEqual({
        what,
        rules: undefined,
      });
    }
  });

  it("leaves them to rg where the global gitignore re-includes, wherever git's settings put it", async () => {
    const tree = await newTree({ ".gitignore": "*.log\n", "mid/root/keep.log": "", "mid/root/x.log": "" });
    const root = join(tree, "mid", "root");
    const globalHome = await newTree({}, "keel-home-");
    const at = (home: string, extra: Record<string, string> = {}) =>
      parentIgnoreRules(root, { HOME: home, ...extra });
    expect(at(globalHome)).toEqual(["*.log"]);
    await writeTree(globalHome, { ".config/git/ignore": "*.tmp\n" });
    expect(at(globalHome)).toEqual(["*.log"]);
    await writeTree(globalHome, { ".config/git/ignore": "!keep.log\n" });
    expect(at(globalHome)).toBeUndefined();
    // core.excludesFile in ~/.gitconfig, with ~ and quotes.
    await writeTree(globalHome, {
      ".config/git/ignore": "*.tmp\n",
      ".gitconfig": '[core]\n\texcludesFile = "~/global.ignore"\n',
      "global.ignore": "!keep.log\n",
    });
    expect(at(globalHome)).toBeUndefined();
    await writeTree(globalHome, { "global.ignore": "*.bak\n" });
    expect(at(globalHome)).toEqual(["*.log"]);
    // A relative excludesFile cannot be followed here; XDG_CONFIG_HOME moves git's config.
    await writeTree(globalHome, { ".gitconfig": "[core]\n\texcludesfile = global.ignore\n" });
    expect(at(globalHome)).toBeUndefined();
    await writeTree(globalHome, { ".gitconfig": "", "xdg/git/ignore": "!keep.log\n" });
    expect(at(globalHome, { XDG_CONFIG_HOME: join(globalHome, "xdg") })).toBeUndefined();
    // Why: rg ranks the parent's rule above the global re-include; restated, the rule would rank below it.
    const ignoreFile = join(globalHome, "restated.ignore");
    await writeFile(ignoreFile, "*.log\n");
    const globalEnv = {
      PATH: process.env.PATH ?? "",
      HOME: globalHome,
      XDG_CONFIG_HOME: join(globalHome, "xdg"),
    };
    const list = (args: string[]) =>
      spawnSync(rg, [...commonSearchArgs(), "--files", ...args, "."], { cwd: root, env: globalEnv })
        .stdout.toString()
        .split("\n")
        .filter(Boolean);
    expect(list([])).toEqual([]);
    expect(list(["--no-ignore-parent", `--ignore-file=${ignoreFile}`])).toEqual(["./keep.log"]);
  });

  it("reads the parents of the root's real path, as rg does", async () => {
    const tree = await newTree({
      "real/.gitignore": "*.log\n/inner/sub/\n",
      "real/inner/x.log": "",
      "real/inner/sub/y": "",
    });
    await mkdir(join(tree, "links"));
    await symlink(join(tree, "real", "inner"), join(tree, "links", "inner"));
    const linked = join(tree, "links", "inner");
    const rules = parentIgnoreRules(linked, env());
    expect(rules).toEqual(["*.log", "/sub/"]);
    expect(await restatedListing(linked, rules!)).toEqual(listing(linked, []));
    expect(listing(linked, [])).toEqual([]);
  });
});
