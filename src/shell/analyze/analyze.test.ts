import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyzeBashCommand, explainBashCommand, isReadOnlyBashCommand, runsOnlyGit } from "./analyze.ts";
import { initBashParser } from "./grammar/parse.ts";
import { type ContextOptions, contextFor, createTestProject, type TestProject } from "./testing/project.ts";

let project: TestProject;

beforeAll(async () => {
  await initBashParser();
  project = createTestProject();
  symlinkSync(project.outside, join(project.root, "logs"));
  mkdirSync(join(project.root, "dashes"));
  writeFileSync(join(project.root, "dashes", "--pre=sh.ts"), "");
  symlinkSync(join(project.outside, "not-yet"), join(project.root, "dangling"));
  // A folder laid out like a bare git repository, as plain file writes can plant one.
  mkdirSync(join(project.root, "planted", "objects"), { recursive: true });
  mkdirSync(join(project.root, "planted", "refs"));
  writeFileSync(join(project.root, "planted", "HEAD"), "ref: refs/heads/main\n");
});
afterAll(() => project.cleanup());

async function verdict(command: string, options: ContextOptions = {}, cwd?: string) {
  return analyzeBashCommand(command, {
    cwd: cwd ?? project.root,
    permissionContext: contextFor(project.root, options),
  });
}

describe("analyzeBashCommand", () => {
  it.each([
    ["ls -la src && git status", "allow"],
    ["cd src && cat index.ts", "allow"],
    ["npm test", "passthrough"],
    ["echo hi > out.txt", "passthrough"],
    ["rm -rf dist", "passthrough"],
    ["cat /etc/hosts", "ask"],
    ["cd src && cat ../../outside/x", "ask"],
    ["cat logs/x", "ask"],
    ["cat ./logs/../README.md", "ask"],
    ["git config --global --list", "ask"],
    ["echo x > dangling", "ask"],
    ["cat dashes/*.ts", "allow"],
    ["cd dashes && rg foo *.ts", "ask"],
    // Globs are matched against the disk as bash matches them: a match through a link out asks.
    ["cat src/*/x", "allow"],
    ["cat l*", "ask"],
    ["cat .*", "allow"],
    ["ls -d src/*/", "allow"],
    ["ls -d */", "ask"],
    ["ps aux", "allow"],
    ["ps auxe", "passthrough"],
    ["node -v && python3 -V && go version", "allow"],
    ["jq -n env", "passthrough"],
    ["jq '.a' src/config.json", "allow"],
    ["man ./x.1", "passthrough"],
    ["cd - && ls", "ask"],
    ["cd && ls", "ask"],
    ["pushd /etc && cat passwd", "ask"],
    // A file test tells whether a file outside exists.
    ["[ -f /etc/shadow ] && echo yes", "ask"],
    ["test -e ../outside/x", "ask"],
    ["[ -f src/index.ts ] && echo yes", "allow"],
    // Backticks in an unquoted heredoc body run (tree-sitter leaves them as text).
    ["cat <<EOF\n`id`\nEOF", "ask"],
    ["cat <<-EOF >/dev/null\n\t`id`\nEOF", "ask"],
    ["cat <<'EOF'\n`id`\nEOF", "allow"],
    // git obeys the config of whatever repository it finds: only a .git folder is the project's own.
    ["git -C planted status", "ask"],
    ["git -C planted/refs log", "ask"],
    ["cd planted && git log", "ask"],
    ["git --git-dir=planted log", "ask"],
    ["git --git-dir src log", "ask"],
    ["git --git-dir=.git log -5", "allow"],
    ["git -C src status", "allow"],
    ["cd src && git log --oneline", "allow"],
    // diff -r and ls -RL follow links inside the folders they walk (logs/ leads outside).
    ["diff -rN . src", "passthrough"],
    ["ls -RL", "passthrough"],
    ["diff -r --no-dereference src src", "allow"],
    ["find . -newer /etc/hostname", "ask"],
    // Only known-harmless variables keep a command read-only.
    ["GCONV_PATH=. git log --encoding=X", "ask"],
    ["FOO=1 ls", "passthrough"],
    ["env FOO=1 cat README.md", "passthrough"],
    ["LANG=C ls", "allow"],
    ["NO_COLOR=1 TZ=UTC git log -5", "allow"],
  ])("%j -> %s", async (command, expected) => {
    expect((await verdict(command)).behavior).toBe(expected);
  });

  it("follows every directory the shell may be in after cd (a failed cd keeps the old one)", async () => {
    expect((await verdict("cd src && cat ../README.md")).behavior).toBe("allow");
    expect((await verdict("cd src; cat ../README.md")).behavior).toBe("ask");
    expect((await verdict("cd src || cat ../README.md")).behavior).toBe("ask");
    expect((await verdict("cd src && ls || cat ../README.md")).behavior).toBe("ask");
    expect((await verdict("cd nowhere; cat ../outside/x")).behavior).toBe("ask");
  });

  it("asks when the shell itself is outside the working directories", async () => {
    expect((await verdict("ls", {}, project.outside)).check).toBe("path-outside-working-dirs");
  });

  it("allows plain file-system commands in acceptEdits, and nothing else", async () => {
    expect(
      (await verdict("mkdir -p build && cp README.md build/ && echo x > build/y", { mode: "acceptEdits" }))
        .behavior,
    ).toBe("allow");
    expect((await verdict("rm -rf build", { mode: "acceptEdits" })).behavior).toBe("allow");
    expect((await verdict("rm -rf build/*.o", { mode: "acceptEdits" })).behavior).toBe("allow");
    expect((await verdict("rm -rf .", { mode: "acceptEdits" })).behavior).toBe("ask");
    expect((await verdict("cd src && rm -rf ..", { mode: "acceptEdits" })).behavior).toBe("ask");
    expect((await verdict("npm test", { mode: "acceptEdits" })).behavior).toBe("passthrough");
    expect((await verdict("cp README.md ../outside/", { mode: "acceptEdits" })).behavior).toBe("ask");
  });

  it("allows what no rule denies when the sandbox auto-allows, except safety checks and hidden commands under rules", async () => {
    expect((await verdict("npm test", { sandbox: true })).behavior).toBe("allow");
    expect((await verdict("echo $(id)", { sandbox: true })).behavior).toBe("allow");
    expect((await verdict("echo $(id)", { sandbox: true, deny: ["Bash(curl:*)"] })).behavior).toBe("ask");
    expect((await verdict("echo x > .claude/settings.json", { sandbox: true })).behavior).toBe("ask");
  });

  it("suggests a rule as narrow as the command's verb, never a blanket Bash", async () => {
    expect((await verdict("npm run test -- --watch")).suggestion).toBe("npm run test:*");
    expect((await verdict("git commit -m 'x y'")).suggestion).toBe("git commit:*");
    expect((await verdict("pytest tests/unit -q")).suggestion).toBe("pytest:*");
    expect((await verdict("timeout 60 cargo build --release")).suggestion).toBe("cargo build:*");
    expect((await verdict("python3 scripts/x.py")).suggestion).toBe("python3 scripts/x.py:*");
    expect((await verdict("eval x")).suggestion).toBeUndefined();
  });

  it("explains: verdict, parts and the check that fired", async () => {
    const explained = await explainBashCommand("ls && echo $(id)", {
      cwd: project.root,
      permissionContext: contextFor(project.root),
    });
    expect(explained.check).toBe("command-substitution");
    expect(explained.verdict.behavior).toBe("ask");
    expect(explained.parts.map((part) => part.argv[0])).toEqual(["ls", "echo"]);
  });
});

describe("isReadOnlyBashCommand", () => {
  it.each([
    ["ls -la", true],
    ["git log | head", true],
    ["cat f > out", false],
    ["echo $(id)", false],
    ["npm test", false],
    ["sed -i s/a/b/ f", false],
    ["rm x", false],
    ["ls\nls", false],
    ["find . -name '*.ts' | xargs wc -l", true],
    ["find . -exec cat {} \\;", true],
    ["echo $HOME", true],
    ["env | grep -c PATH", true],
    ["find . | xargs rm", false],
    ["cat list | xargs cat", false],
  ])("%j -> %s", (command, expected) => {
    expect(isReadOnlyBashCommand(command)).toBe(expected);
  });
});

describe("runsOnlyGit (the confinement leaves git's own data writable for these lines)", () => {
  const options = () => ({
    cwd: project.root,
    permissionContext: contextFor(project.root, { mode: "bypassPermissions" }),
  });
  it.each([
    "git commit -m x",
    "git add README.md && git commit -q -m first && git log --oneline",
    "git status | head",
    "git fetch origin",
  ])("is true for %s", (command) => {
    expect(runsOnlyGit(command, options())).toBe(true);
  });
  it.each([
    "git -c core.hooksPath=hooks commit -m y",
    "git --exec-path=/tmp/x status",
    "GIT_DIR=/tmp/x git status",
    "git --git-dir=planted status",
    "git commit -m x && npm test",
    "npm test",
    "ls -la",
    "ls | xargs git add",
    "echo $(git rev-parse HEAD)",
  ])("is false for %s", (command) => {
    expect(runsOnlyGit(command, options())).toBe(false);
  });
});
