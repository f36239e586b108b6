// `keel check` as a script uses it: the exit code says the decision (0 allow, 1 ask, 3 deny; 2 usage),
// and a tool hidden by a blanket deny rule is denied by that rule, not unknown.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
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

describe("a settings file over the size bound", () => {
  it("keel check and keel hook refuse it at once, naming the file and the bound", async () => {
    const w = keelWorld();
    onTestFinished(() => rmSync(w.root, { recursive: true, force: true }));
    const file = join(w.home, ".keel", "settings.json");
    mkdirSync(dirname(file), { recursive: true });
    // The report's file: 2 million deny rules, 48 MB.
    const deny = Array.from({ length: 2_000_000 }, (_, i) => `Bash(rm -rf /x/${i})`);
    writeFileSync(file, JSON.stringify({ permissions: { deny } }));
    const check = await runKeel(["check", "Bash", '{"command": "ls"}'], w);
    expect(check.code).toBe(2);
    expect(check.stderr).toMatch(
      new RegExp(`^keel: ${file}:1:1: the file is 4\\d\\.\\d MiB, over the 1 MiB a settings file may hold`),
    );
    const event = {
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls" },
      cwd: w.project,
    };
    const hook = await runKeel(["hook", "claude-code"], w, JSON.stringify({ session_id: "s", ...event }));
    // No opinion (Claude Code asks as usual), with the reason on stderr; never exit 2 (block).
    expect(hook.code).toBe(0);
    expect(hook.stdout).toBe("");
    expect(hook.stderr).toContain(`${file}:1:1: the file is`);
  });
});
