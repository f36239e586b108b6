// `keel check` as a script uses it: the exit code says the decision (0 allow, 1 ask, 3 deny; 2 usage),
// and a tool hidden by a blanket deny rule is denied by that rule, not unknown.
import { describe, expect, it } from "vitest";
import { keelWorld, runKeel } from "../testing/keelProcess.ts";

describe("keel check", () => {
  it.each([
    { args: ["Read", '{"file_path": "/etc/hostname"}', "--allow", "Read"], code: 0, behavior: "allow" },
    { args: ["Bash", '{"command": "touch x"}'], code: 1, behavior: "ask" },
    { args: ["Bash", '{"command": "touch x"}', "--deny", "Bash(touch:*)"], code: 3, behavior: "deny" },
  ])("exit $code for $behavior", async ({ args, code, behavior }) => {
    const w = keelWorld();
    for (const json of [[], ["--json"]]) {
      const result = await runKeel(["check", ...args, ...json], w);
      expect(result.code).toBe(code);
      if (json.length) expect(JSON.parse(result.stdout)).toMatchObject({ behavior });
      else expect(result.stdout).toMatch(new RegExp(`^${behavior.toUpperCase()}:`));
    }
  });

  it.each([
    ["Write", ["--deny", "Write"], "deny rule Write from cliArg settings"],
    ["Bash", ["--deny", "*"], "deny rule * from cliArg settings"],
  ])("a blanket deny: check %s %j answers deny naming the rule", async (tool, flags, decidedBy) => {
    const w = keelWorld();
    const result = await runKeel(["check", tool, "{}", ...flags, "--json"], w);
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({
      behavior: "deny",
      decidedBy,
      decisionReason: { type: "rule" },
    });
    const text = await runKeel(["check", tool, "{}", ...flags], w);
    expect(text.stdout).toMatch(
      new RegExp(`^DENY: ${tool} is denied outright \\(and hidden from the model\\)`),
    );
  });

  it("the family rule Edit hides Write, and check says which rule", async () => {
    const w = keelWorld();
    const result = await runKeel(["check", "Write", "{}", "--deny", "Edit", "--json"], w);
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({ decidedBy: "deny rule Edit from cliArg settings" });
  });

  it("a name no tool has is a usage error with a guess", async () => {
    const w = keelWorld();
    const result = await runKeel(["check", "Raed", "{}"], w);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/No tool named "Raed"; did you mean "Read"\? Available tools:/);
  });
});
