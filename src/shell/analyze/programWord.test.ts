// Which programs a command runs, one resolution for every check: launchers and multi-call binaries
// are seen through for protected paths as they are for deny rules, and a name looked up after the
// line changed how names are found is not trusted. Must and must-not rows, on the resolution and on
// the decision in bypass mode.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { viewCommand } from "./commandView.ts";
import { extractEveryCommand } from "./grammar/everyCommand.ts";
import { initBashParser, withBashTree } from "./grammar/parse.ts";
import { programReadings } from "./programWord.ts";
import { decideBash } from "./testing/decide.ts";
import { createTestProject, type TestProject } from "./testing/project.ts";

let project: TestProject;

beforeAll(async () => {
  await initBashParser();
  project = createTestProject();
});
afterAll(() => project.cleanup());

/** The programs the first command of a line may run, or "unknown". */
function programsOf(command: string): string[] | "unknown" {
  const [first] = withBashTree(command, (root) => extractEveryCommand(root, command));
  const reading = programReadings(viewCommand(first as never), project.root);
  return reading.kind === "unknown" ? "unknown" : reading.views.map((view) => view.argv.join(" "));
}

describe("programReadings", () => {
  it.each([
    ["busybox tar xf a.tar", "tar xf a.tar"],
    ["toybox rm -rf x", "rm -rf x"],
    ["/bin/busybox chmod -R 777 .", "chmod -R 777 ."],
    ["coreutils --coreutils-prog=cp a b", "cp a b"],
    ["coreutils cp a b", "cp a b"],
    ["fakeroot tar xf a.tar", "tar xf a.tar"],
    ["sudo busybox tar xf a.tar", "tar xf a.tar"],
    ["nice -n 5 busybox rm x", "rm x"],
    ["flock /tmp/l tar xf a.tar", "tar xf a.tar"],
    ["npm exec -- busybox tar xf a.tar", "tar xf a.tar"],
    ["uv run rm x", "rm x"],
    ["busybox timeout 5 tar xf a.tar", "tar xf a.tar"],
  ])("%j runs %j", (command, program) => {
    expect(programsOf(command)).toContain(program);
  });

  it.each([
    ["ls -la", ["ls -la"]],
    ["command -v tar", ["command -v tar"]],
    ["timeout 5 cat x", ["cat x"]],
    ["git status", ["git status"]],
  ])("%j runs only %j", (command, programs) => {
    expect(programsOf(command)).toEqual(programs);
  });

  it.each(["$X a", "busybox $X a", 'toybox "$(echo rm)" x'])(
    "%j runs a program only known at run time",
    (command) => {
      expect(programsOf(command)).toBe("unknown");
    },
  );
});

describe("every check sees the program that runs (bypass mode)", () => {
  it.each([
    "busybox tar xf x.tar",
    "busybox chmod -R 777 .",
    "toybox cp README.md .git/hooks/pre-commit",
    "busybox sh -c 'echo x > .git/hooks/pre-commit'",
    "coreutils --coreutils-prog=cp README.md .git/config",
    "fakeroot tar xf x.tar",
    "nohup busybox unzip x.zip",
    "hash -p /bin/cp cat; cat README.md .git/hooks/pre-commit",
    "PATH=.:$PATH cat README.md .git/config",
    "export PATH=./bin:$PATH; cat README.md .claude/settings.json",
    "alias cat=cp; cat README.md .git/config",
  ])("%j asks", async (command) => {
    expect(await decideBash(project.root, command, { mode: "bypassPermissions" })).toBe("ask");
  });

  it.each([
    "busybox cat README.md",
    "toybox ls src",
    "PATH=/usr/local/bin:$PATH; echo hi",
    "hash -r; ls",
    "command -v busybox",
  ])("%j is allowed", async (command) => {
    expect(await decideBash(project.root, command, { mode: "bypassPermissions" })).toBe("allow");
  });
});
