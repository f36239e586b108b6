// Links and second names, as the Bash path checks judge them: a symbolic link made to a file outside
// the working directories or to a protected one is not an edit inside them (asks in acceptEdits), and
// writing a file with more than one name asks in every mode. Must and must-not rows, on real files.
import { linkSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initBashParser } from "./grammar/parse.ts";
import { decideBash } from "./testing/decide.ts";
import { createTestProject, type TestProject } from "./testing/project.ts";

let project: TestProject;

beforeAll(async () => {
  await initBashParser();
  project = createTestProject();
  mkdirSync(join(project.root, "links"));
  writeFileSync(join(project.root, ".claude", "settings.json"), "{}");
  linkSync(join(project.root, ".claude", "settings.json"), join(project.root, "src", "settings-twin.json"));
  writeFileSync(join(project.outside, "notes.txt"), "x");
  linkSync(join(project.outside, "notes.txt"), join(project.root, "src", "notes-twin.txt"));
});
afterAll(() => project.cleanup());

describe("ln -s: where the link points (acceptEdits)", () => {
  it.each([
    "ln -s /etc/passwd x",
    "ln -sf /etc/passwd links/x",
    "ln --symbolic ~/.ssh/id_rsa key",
    "ln -s ../../outside/notes.txt links/n",
    "ln -s ../outside/notes.txt n",
    "ln -s -t links /etc/hosts",
    "ln -s .git/hooks/pre-commit hook",
    "ln -s ../.claude/settings.json links/s",
    "ln -sr .git/config links/c",
  ])("%j asks", async (command) => {
    expect(await decideBash(project.root, command, { mode: "acceptEdits" })).toBe("ask");
  });

  it.each([
    "ln -s src/index.ts index-link.ts",
    "ln -s ../src/app.ts links/app.ts",
    "ln -sf README.md links/",
    "ln -sr src/app.ts links/app2.ts",
    "ln -s /dev/null links/null",
    "mkdir -p build && ln -s ../src build/src",
  ])("%j is allowed", async (command) => {
    expect(await decideBash(project.root, command, { mode: "acceptEdits" })).toBe("allow");
  });
});

describe("a file with more than one name (bypass mode)", () => {
  it.each([
    "echo x > src/settings-twin.json",
    "echo x >> src/notes-twin.txt",
    "sed -i s/a/b/ src/settings-twin.json",
    "cp README.md src/notes-twin.txt",
    "truncate -s 0 src/settings-twin.json",
  ])("%j asks", async (command) => {
    expect(await decideBash(project.root, command, { mode: "bypassPermissions" })).toBe("ask");
  });

  it.each(["echo x > src/new.txt", "sed -i s/a/b/ src/app.ts", "cat src/settings-twin.json"])(
    "%j is allowed",
    async (command) => {
      expect(await decideBash(project.root, command, { mode: "bypassPermissions" })).toBe("allow");
    },
  );
});
