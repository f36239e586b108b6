// biome-ignore-all lint/suspicious/noTemplateCurlyInString: bash commands, where ${...} is literal text
import { beforeAll, describe, expect, it } from "vitest";
import { readBash } from "./frontEnd.ts";
import { initBashParser, isBashParserReady } from "./parse.ts";

beforeAll(async () => {
  await initBashParser();
});

function simple(command: string) {
  const { problems, extraction } = readBash(command);
  if (problems[0]) throw new Error(`${command} was too complex: ${problems[0].reason}`);
  return {
    commands: extraction.commands.map((extracted) => extracted.simple),
    operators: extraction.operators,
  };
}

describe("readBash", () => {
  it("is ready after init, and init is idempotent", async () => {
    await initBashParser();
    expect(isBashParserReady()).toBe(true);
  });

  it.each([
    ["ls -la src", [["ls", "-la", "src"]], []],
    ["a && b || c; d & e", [["a"], ["b"], ["c"], ["d"], ["e"]], ["&&", "||", ";", "&"]],
    ["a | b |& c", [["a"], ["b"], ["c"]], ["|", "|&"]],
    ["ls;rm x", [["ls"], ["rm", "x"]], [";"]],
    [`echo "a b" 'c d' e\\ f`, [["echo", "a b", "c d", "e f"]], []],
    [`echo "x"y'z'`, [["echo", "xyz"]], []],
    [`r''m -rf x`, [["rm", "-rf", "x"]], []],
    ["\\rm x", [["rm", "x"]], []],
    ['echo "\\$\\\n(touch /tmp/x)"', [["echo", "$(touch /tmp/x)"]], []],
    ["ls > f -la", [["ls", "-la"]], []],
    ["! grep x f", [["grep", "x", "f"]], []],
    [
      "[ -f x ] && echo yes",
      [
        ["[", "-f", "x", "]"],
        ["echo", "yes"],
      ],
      ["&&"],
    ],
    ["export A=b C", [["export", "A=b", "C"]], []],
  ])("splits %j into commands", (command, argvs, operators) => {
    const result = simple(command);
    expect(result.commands.map((part) => part.argv)).toEqual(argvs);
    expect(result.operators).toEqual(operators);
  });

  it("keeps assignments apart from argv", () => {
    const [part] = simple("LANG=C FOO=1 sort f").commands;
    expect(part?.assignments).toEqual([
      { name: "LANG", value: "C" },
      { name: "FOO", value: "1" },
    ]);
    expect(part?.argv).toEqual(["sort", "f"]);
  });

  it("reads redirects with their descriptors, and binds a trailing redirect to the last command", () => {
    const result = simple("cd .claude && echo x > settings.json 2>&1");
    expect(result.commands[0]?.redirects).toEqual([]);
    expect(result.commands[1]?.redirects).toEqual([
      { op: ">", target: "settings.json" },
      { op: ">&", target: "1", fd: 2 },
    ]);
  });

  it("reads heredocs and here-strings as stdin redirects", () => {
    expect(simple("cat <<'EOF' > out\nhi\nEOF").commands[0]?.redirects).toEqual([
      { op: ">", target: "out" },
      { op: "<<", target: "EOF" },
    ]);
    expect(simple('grep x <<< "abc"').commands[0]?.redirects).toEqual([{ op: "<<<", target: "abc" }]);
  });

  it.each([
    ["echo $(id)", "command-substitution"],
    ["echo `id`", "command-substitution"],
    ["cat <(ls)", "process-substitution"],
    ["cat $HOME", "parameter-expansion"],
    ["echo ${x@P}", "parameter-transform"],
    ["$'\\x72\\x6d' x", "ansi-c-quoting"],
    ["echo {a,b}", "brace-expansion"],
    ["echo $((1+2))", "arithmetic"],
    ["(cd x && ls)", "compound-statement"],
    ["{ ls; }", "compound-statement"],
    ["if true; then ls; fi", "compound-statement"],
    ["for f in a; do ls; done", "compound-statement"],
    ["f() { ls; }", "compound-statement"],
    ["[[ a =~ b ]]", "compound-statement"],
    ["ls\nrm x", "newline-separator"],
    ["cu\\\nrl x", "line-continuation"],
    ["ls ;; x", "unsupported-operator"],
    ["cat <<EOF | sh\nls\nEOF", "heredoc-compound"],
    ["a[1]=x", "arithmetic-subscript"],
    ["a=(1 2)", "compound-assignment"],
    ["ls *(e:id:)", "syntax-error"],
    ["echo 'unterminated", "syntax-error"],
  ])("says %j is too complex (%s)", (command, check) => {
    expect(readBash(command).problems[0]?.check).toBe(check);
    expect(readBash(command, { firstProblemOnly: true }).problems[0]?.check).toBe(check);
  });
});

describe("a command is read once for every question about it", () => {
  it("gives the same frozen reading to every reader of the same text", () => {
    const first = readBash("git status && ls -la src | head -n 3");
    expect(readBash("git status && ls -la src | head -n 3")).toBe(first);
    expect(Object.isFrozen(first.extraction.commands[0]?.words)).toBe(true);
    expect(() => (first.problems as unknown[]).push({ check: "x", reason: "y" })).toThrow(TypeError);
    expect(readBash("git status && ls -la src | head -n 4")).not.toBe(first);
  });

  it("answers a first-problem question from a full reading, never a full question from a partial one", () => {
    const full = readBash("git log -n 3 && cat $(ls) | wc -l");
    expect(readBash("git log -n 3 && cat $(ls) | wc -l", { firstProblemOnly: true })).toBe(full);
    for (const command of ["ls -la && cat $(ls) | wc -c", "ls -la && cat notes | wc -c"]) {
      const partial = readBash(command, { firstProblemOnly: true });
      const whole = readBash(command);
      expect(whole).not.toBe(partial);
      expect(whole.problems[0]).toEqual(partial.problems[0]);
      if (whole.problems.length === 0) expect(whole.extraction.commands).toEqual(partial.extraction.commands);
    }
    expect(readBash("ls -la && cat $(ls) | wc -c").problems).not.toEqual([]);
    expect(readBash("ls -la && cat notes | wc -c").extraction.commands).toHaveLength(3);
  });
});
