// Files find names, opened by a command it runs (find -exec cat {} \;) or fed through xargs (find |
// xargs wc -l): read-only when that command only reads each file it is given, and then judged as a read
// of everything below find's start folders, the links there followed and the names split as xargs
// splits them. Must and must-not rows on real files, decided in default mode with nothing denying.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initBashParser } from "./grammar/parse.ts";
import { decideBash } from "./testing/decide.ts";
import { createTestProject, type TestProject } from "./testing/project.ts";

let project: TestProject;
/** A project with nothing in the way: what is allowed there is allowed for what the command does. */
let clean: TestProject;

beforeAll(async () => {
  await initBashParser();
  clean = createTestProject();
  project = createTestProject();
  // linked/ holds a .ts file that is a link out of the project; spaced/ a name xargs would split.
  mkdirSync(join(project.root, "linked"));
  writeFileSync(join(project.outside, "secret.ts"), "secret");
  symlinkSync(join(project.outside, "secret.ts"), join(project.root, "linked", "evil.ts"));
  writeFileSync(join(project.root, "linked", "fine.md"), "x");
  mkdirSync(join(project.root, "spaced", "a "), { recursive: true });
  writeFileSync(join(project.root, "spaced", "a ", "x.ts"), "x");
});
afterAll(() => {
  project.cleanup();
  clean.cleanup();
});

describe("read-only commands on the files find names", () => {
  it.each([
    "find . -name '*.ts' | xargs wc -l",
    "find src -name '*.ts' | xargs wc -l",
    "find src tests -name '*.ts' -print0 | xargs -0 grep -n x",
    "find . -name '*.ts' -print0 | xargs -0 grep -n x",
    "find src -type f | grep -v test | xargs wc -l",
    "find src -name '*.ts' | head -20 | xargs cat",
    "find . -type f -name '*.md' -print0 | xargs -0 -n 10 wc -c",
    "find src -name '*.ts' | xargs -I{} grep -l x {}",
    "find . -exec cat {} \\;",
    "find src -name '*.ts' -exec grep -n x {} +",
    "find . -type f -exec wc -l {} \\;",
    "fd -e ts . src | xargs wc -l",
  ])("%j is allowed", async (command) => {
    expect(await decideBash(clean.root, command)).toBe("allow");
  });

  it.each([
    // A link among the files leads out of the project; find -name '*.ts' prints it.
    "find linked -name '*.ts' | xargs cat",
    "find linked -exec cat {} \\;",
    "find . -name '*.ts' -exec cat {} +",
    // xargs without -0 splits `spaced/a /x.ts` at the blank.
    "find spaced | xargs cat",
    // Outside the project, or names that are not find's.
    "find /etc -name '*.conf' | xargs cat",
    "find .. -name '*.ts' | xargs wc -l",
    "echo /etc/passwd | xargs cat",
    "cat list.txt | xargs cat",
    "find . -printf '/etc/%f\\n' | xargs cat",
    "find . -name '*.ts' | sed s/x/y/ | xargs cat",
    "find . -name '*.ts' | grep -o 'x.*' | xargs cat",
    "find -L . -name '*.ts' | xargs cat",
    // Commands that do more than read the files they are given.
    "find . -name '*.o' | xargs rm",
    "find . -exec sed -i s/a/b/ {} +",
    "find . -exec sh -c 'cat $1' _ {} \\;",
    "find . -name '*.ts' | xargs -I{} cp {} /tmp/",
  ])("%j asks", async (command) => {
    expect(await decideBash(project.root, command)).not.toBe("allow");
  });

  it.each(["find linked -name '*.md' | xargs cat", "find linked -type f -exec cat {} \\;"])(
    "%j is allowed: the link out is not among the files opened",
    async (command) => {
      expect(await decideBash(project.root, command)).toBe("allow");
    },
  );

  it("a Read deny rule covering a file below asks, fed or opened by find", async () => {
    const deny = ["Read(**/.env)"];
    for (const command of [
      "find . | xargs cat",
      "find . -exec cat {} \\;",
      "find . -type f -print0 | xargs -0 grep x",
    ])
      expect(await decideBash(clean.root, command, { deny }), command).not.toBe("allow");
    // As for grep -r, a folder a rule's pattern may reach into asks; one it cannot is read freely.
    expect(await decideBash(clean.root, "find src -name '*.ts' | xargs wc -l", { deny })).toBe("ask");
    const narrow = ["Read(./secrets/**)"];
    expect(await decideBash(clean.root, "find src -name '*.ts' | xargs wc -l", { deny: narrow })).toBe(
      "allow",
    );
  });
});
