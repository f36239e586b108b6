// Read rules against what git can print: `git diff`, `git log -p`, `git show`, `git grep` print only
// paths of the repository's index and history, so with Read(**/.env) they ask only when .env is
// tracked, staged or in that history; a command that could print more (an object id, rev:path,
// --no-index, cat-file) is judged as a read of the whole work tree. Must and must-not rows, on real
// repositories built with git.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetPrintablePathsCache } from "./gitContent.ts";
import { initBashParser } from "./grammar/parse.ts";
import { decideBash } from "./testing/decide.ts";

const DENY = { deny: ["Read(**/.env)"] };
let base: string;

function git(cwd: string, ...args: string[]): void {
  execFileSync(
    "git",
    ["-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false", ...args],
    {
      cwd,
      stdio: "ignore",
    },
  );
}

/** A repository with a.txt and src/b.ts committed twice, and `.env` in the state `setUp` leaves it in. */
function repository(name: string, setUp: (root: string) => void): string {
  const root = join(base, name);
  mkdirSync(join(root, "src"), { recursive: true });
  git(root, "init", "-q", "-b", "main");
  writeFileSync(join(root, "a.txt"), "a\n");
  writeFileSync(join(root, "src", "b.ts"), "b\n");
  git(root, "add", ".");
  git(root, "commit", "-qm", "one");
  writeFileSync(join(root, "a.txt"), "a2\n");
  git(root, "commit", "-qam", "two");
  writeFileSync(join(root, ".env"), "SECRET=1\n");
  setUp(root);
  return root;
}

let untracked: string;
let staged: string;
let historyOnly: string;

beforeAll(async () => {
  await initBashParser();
  resetPrintablePathsCache();
  base = realpathSync(mkdtempSync(join(tmpdir(), "keel-git-printed-")));
  untracked = repository("untracked", () => {});
  staged = repository("staged", (root) => git(root, "add", ".env"));
  historyOnly = repository("history", (root) => {
    git(root, "add", ".env");
    git(root, "commit", "-qm", "oops");
    git(root, "rm", "-q", "--cached", ".env");
    git(root, "commit", "-qm", "forget it");
  });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("git diff and log -p with Read(**/.env)", () => {
  it.each([
    "git diff",
    "git diff --stat",
    "git diff -- src",
    "git diff src/b.ts",
    "git diff HEAD~1",
    "git diff HEAD~1..HEAD",
    "git diff main",
    "git log -p",
    "git log -p -3 --all",
    "git log -p main -- a.txt",
    "git show",
    "git show HEAD~1",
    "git grep SECRET",
    "git stash list",
  ])("%j is allowed when .env is untracked", async (command) => {
    expect(await decideBash(untracked, command, DENY)).toBe("allow");
  });

  it.each(["git diff", "git diff --cached", "git grep SECRET", "git log -p", "git show HEAD"])(
    "%j asks when .env is staged",
    async (command) => {
      expect(await decideBash(staged, command, DENY)).toBe("ask");
    },
  );

  it.each(["git log -p", "git show HEAD~1", "git diff HEAD~2", "git log -p --all"])(
    "%j asks when .env is in the history",
    async (command) => {
      expect(await decideBash(historyOnly, command, DENY)).toBe("ask");
    },
  );

  it("git diff against the index does not look at the history", async () => {
    expect(await decideBash(historyOnly, "git diff", DENY)).toBe("allow");
  });

  it.each([
    "git diff --no-index a.txt .env",
    "git show HEAD:.env",
    "git cat-file -p HEAD",
    "git show 1234abcd",
    "git log -p ORIG_HEAD",
    "git grep --untracked SECRET",
    "git add .env && git diff --cached",
    "git diff --submodule=diff",
  ])("%j could print more than the repository's paths: it is not allowed", async (command) => {
    expect(await decideBash(untracked, command, DENY)).not.toBe("allow");
  });

  it("without a Read rule nothing is listed and git diff is allowed", async () => {
    expect(await decideBash(staged, "git diff --cached")).toBe("allow");
  });
});
