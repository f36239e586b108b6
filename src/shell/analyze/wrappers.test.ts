import { describe, expect, it } from "vitest";
import { tokenizeSpecifier } from "./bashRules.ts";
import { commandFormsForDenyRules } from "./denyForms.ts";
import { parseOptions } from "./options.ts";
import { commandForAllowRules, unwrapForAnalysis } from "./wrappers.ts";

const argv = tokenizeSpecifier;

describe("unwrapForAnalysis", () => {
  it.each([
    ["timeout 10 rm x", ["rm", "x"], ["timeout"]],
    ["timeout -s KILL 5s nice -n 5 ls", ["ls"], ["timeout", "nice"]],
    ["env -i FOO=1 ls", ["ls"], ["env"]],
    ["command -p ls", ["ls"], ["command"]],
    ["xargs -0 -n 1 wc -l", ["wc", "-l"], ["xargs"]],
    ["command -v ls", ["command", "-v", "ls"], []],
    ["sudo rm x", ["sudo", "rm", "x"], []],
    ["env -S 'ls'", ["env", "-S", "ls"], []],
  ])("%j -> %j", (command, effective, wrappers) => {
    const words = argv(command);
    const unwrapped = unwrapForAnalysis(words);
    expect(words.slice(unwrapped.offset)).toEqual(effective);
    expect(unwrapped.wrappers).toEqual(wrappers);
  });

  it("reports wrapper options it does not know, and xargs options it does not know", () => {
    expect(unwrapForAnalysis(argv("timeout --weird 5 ls")).problem?.check).toBe("wrapper-options");
    expect(unwrapForAnalysis(argv("xargs -Q sh -c x")).problem?.check).toBe("xargs-target");
  });

  it.each([
    ["xargs -I{} rm {}", ["rm", "{}"]],
    ["xargs -I @ rm @", ["rm", "@"]],
    ["xargs -i mv {} {}.bak", ["mv", "{}", "{}.bak"]],
    ["xargs -iX echo X", ["echo", "X"]],
    ["xargs --replace=X cp X d/", ["cp", "X", "d/"]],
    ["xargs -a list.txt -0 wc -l", ["wc", "-l"]],
    ["xargs -e -l cat", ["cat"]],
  ])("reads GNU and BSD xargs options: %j runs %j", (command, effective) => {
    const words = argv(command);
    const unwrapped = unwrapForAnalysis(words);
    expect(unwrapped.problem).toBeUndefined();
    expect(words.slice(unwrapped.offset)).toEqual(effective);
    expect(unwrapped.inputArgs).toBe(true);
  });
});

describe("commandForAllowRules", () => {
  it("strips harmless VAR= prefixes and the timing wrappers only", () => {
    expect(
      commandForAllowRules(argv("timeout 60 nice npm test"), [{ name: "NODE_ENV", value: "x" }]),
    ).toEqual(["npm", "test"]);
    expect(commandForAllowRules(argv("npm test"), [{ name: "FOO", value: "1" }])).toEqual([
      "FOO=1",
      "npm",
      "test",
    ]);
    expect(commandForAllowRules(argv("env npm test"), [])).toEqual(["env", "npm", "test"]);
    expect(commandForAllowRules(argv("sudo npm test"), [])).toEqual(["sudo", "npm", "test"]);
  });
});

describe("commandFormsForDenyRules", () => {
  it("strips every wrapper and normalises names", () => {
    const forms = commandFormsForDenyRules(argv("sudo -u root env A=1 /usr/bin/timeout 5 =curl x"));
    expect(forms).toContainEqual(["curl", "x"]);
    expect(forms).toContainEqual(["sudo", "-u", "root", "env", "A=1", "/usr/bin/timeout", "5", "=curl", "x"]);
  });

  it("also reads tools without their global options", () => {
    expect(commandFormsForDenyRules(argv("git -C . --no-pager push"))).toContainEqual(["git", "push"]);
    expect(commandFormsForDenyRules(argv("npm --prefix sub run x"))).toContainEqual(["npm", "run", "x"]);
  });
});

describe("parseOptions", () => {
  const spec = { flags: "al", valued: "n", long: ["--all", "--lines=", "--color[=]"], numeric: true };
  it.each([
    ["-la -n 5 f", true, ["f"]],
    ["-n5 --lines=3 --color f g", true, ["f", "g"]],
    ["-20 f", true, ["f"]],
    ["-- -x", true, ["-x"]],
    ["-x", false, []],
    ["--colour", false, []],
    ["--al", false, []],
    ["-n", false, []],
  ])("%j ok=%s", (command, ok, positionals) => {
    const parsed = parseOptions(argv(command), spec);
    expect(parsed.ok).toBe(ok);
    if (parsed.ok) expect(parsed.positionals).toEqual(positionals);
  });
});
