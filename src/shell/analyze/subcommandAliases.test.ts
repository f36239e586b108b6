// Other spellings of a subcommand that deny and ask rules must read as the one they name: must and must-not rows.
import { describe, expect, it } from "vitest";
import { npmCommand, subcommandAliases } from "./subcommandAliases.ts";

describe("npmCommand", () => {
  it.each([
    ["i", "install"],
    ["add", "install"],
    ["isntall", "install"],
    ["pub", "publish"],
    ["publ", "publish"],
    ["t", "test"],
    ["tst", "test"],
    ["run-script", "run"],
    ["rum", "run"],
    ["runScript", "run"],
    ["x", "exec"],
    ["rm", "uninstall"],
    ["unpub", "unpublish"],
  ])("npm %s runs npm %s", (word, command) => {
    expect(npmCommand(word)).toBe(command);
  });

  it.each(["te", "p", "re", "nonsense"])("npm %s is ambiguous or unknown: no reading", (word) => {
    expect(npmCommand(word)).toBeUndefined();
  });
});

describe("subcommandAliases", () => {
  it.each([
    [
      ["npm", "i", "left-pad"],
      ["npm", "install", "left-pad"],
    ],
    [
      ["pnpm", "rm", "x"],
      ["pnpm", "remove", "x"],
    ],
    [
      ["docker", "container", "rm", "x"],
      ["docker", "rm", "x"],
    ],
    [
      ["docker", "image", "rm", "x"],
      ["docker", "rmi", "x"],
    ],
    [
      ["pip3", "install", "x"],
      ["pip", "install", "x"],
    ],
    [
      ["python3.12", "-m", "pip"],
      ["python", "-m", "pip"],
    ],
  ])("%j is also read as %j", (form, alias) => {
    expect(subcommandAliases(form)).toContainEqual(alias);
  });

  it.each([
    [["npm", "install", "x"]],
    [["npm", "test"]],
    [["git", "ci"]],
    [["docker", "rm", "x"]],
    [["pip", "install"]],
    [["npm"]],
  ])("%j has no other spelling", (form) => {
    expect(subcommandAliases(form)).toEqual([]);
  });
});
