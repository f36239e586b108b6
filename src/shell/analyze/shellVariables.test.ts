// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the examples are bash, where ${...} is literal text
// The variables a command sets, and what the path checks make of a line that sets the ones they read
// (HOME for `~` and a bare cd, CDPATH for cd, PATH for which program runs): must and must-not rows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { viewCommand } from "./commandView.ts";
import { extractEveryCommand } from "./grammar/everyCommand.ts";
import { initBashParser, withBashTree } from "./grammar/parse.ts";
import { treeAssignments } from "./grammar/treeAssignments.ts";
import { assignedVariables } from "./shellVariables.ts";
import { decideBash } from "./testing/decide.ts";
import { createTestProject, type TestProject } from "./testing/project.ts";

let project: TestProject;

beforeAll(async () => {
  await initBashParser();
  project = createTestProject();
});
afterAll(() => project.cleanup());

/** Names the commands of a line set (plain commands and loops, expansions, arithmetic); "*" for any. */
function setBy(command: string): string[] {
  return withBashTree(command, (root) => {
    const names = extractEveryCommand(root, command).flatMap((extracted) => {
      const assigned = assignedVariables(viewCommand(extracted));
      return assigned.any ? [...assigned.names, "*"] : assigned.names;
    });
    return [...names, ...treeAssignments(root)];
  });
}

describe("assignedVariables", () => {
  it.each([
    ["HOME=.git", "HOME"],
    ["export CDPATH=.git", "CDPATH"],
    ["declare -x HOME=x", "HOME"],
    ["readonly HOME", "HOME"],
    ["read HOME", "HOME"],
    ["read -r -p prompt HOME", "HOME"],
    ["mapfile -t HOME", "HOME"],
    ["printf -v HOME x", "HOME"],
    ["printf -vHOME x", "HOME"],
    ["getopts ab HOME", "HOME"],
    ["wait -n -p HOME", "HOME"],
    ["unset CDPATH", "CDPATH"],
    ["exec {HOME}>/dev/null", "HOME"],
    ["eval x", "*"],
    ["source ./env.sh", "*"],
    ["declare -n ref=HOME", "*"],
    ["let HOME=1", "*"],
    ['read "$name"', "*"],
    ["for HOME in .git; do :; done", "HOME"],
    [": ${CDPATH:=.git}", "CDPATH"],
    [": ${HOME=.git}", "HOME"],
    ["((HOME=0))", "HOME"],
    ["echo $((CDPATH=1))", "CDPATH"],
    ["a[HOME=1]=2", "HOME"],
  ])("%j sets %s", (command, name) => {
    expect(setBy(command)).toContain(name);
  });

  it.each([
    "HOME=x ls",
    "echo HOME=x",
    "read -p HOME x",
    "printf HOME",
    "cd src",
    "echo ${HOME:-x}",
    "ls $HOME",
  ])("%j sets neither HOME, CDPATH nor anything else", (command) => {
    expect(setBy(command).filter((name) => ["HOME", "CDPATH", "PATH", "*"].includes(name))).toEqual([]);
  });
});

describe("a line that sets what cd and ~ read (bypass mode)", () => {
  it.each([
    "CDPATH=.git cd hooks; echo x > pre-commit",
    "CDPATH=.git pushd hooks && echo x > pre-commit",
    "export CDPATH=.git; cd hooks; echo x > pre-commit",
    "HOME=.git cd && echo x > config",
    "HOME=.git; cd; echo x > config",
    "HOME=.git; echo x > ~/config",
    "HOME=.git; cp README.md ~/config",
    "read HOME <<< .git; cd; echo x > config",
    "printf -v HOME .git; cd; echo x > config",
    "mapfile HOME < list.txt; cd; echo x > config",
    "exec {HOME}>/dev/null; cd; echo x > config",
    "declare -n r=HOME; r=.git; cd; echo x > config",
    "for HOME in .git; do cd; echo x > config; done",
    ": ${HOME:=.git}; cd; echo x > config",
    ": ${CDPATH:=.git}; cd hooks; echo x > pre-commit",
    "OLDPWD=.git cd - && echo x > config",
    "HOME=.git; mytool ~/hooks/pre-commit",
  ])("%j asks", async (command) => {
    expect(await decideBash(project.root, command, { mode: "bypassPermissions" })).toBe("ask");
  });

  it.each([
    "cd src && echo x > out.txt",
    "CDPATH=/nowhere cd ./src && echo x > out.txt",
    "HOME=/tmp cd && cat README.md",
    "FOO=1; cd src; echo x > out.txt",
    "echo x > ~/notes.txt",
  ])("%j is allowed", async (command) => {
    expect(await decideBash(project.root, command, { mode: "bypassPermissions" })).toBe("allow");
  });
});
