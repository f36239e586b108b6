// `keel check` as a script uses it: the exit code says the decision (0 allow, 1 ask, 3 deny; 2 usage),
// and a tool hidden by a blanket deny rule is denied by that rule, not unknown.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
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

  it("a command the analyzer cannot finish is asked, as a person must approve it, in every mode", async () => {
    // 3,000 commands in one && chain nest 3,000 levels deep: deeper than the analyzer's recursion reaches.
    const command = Array.from({ length: 3000 }, (_, i) => `echo a${i}`).join(" && ");
    const w = keelWorld();
    for (const mode of ["default", "bypassPermissions"]) {
      const result = await runKeel(
        ["check", "Bash", JSON.stringify({ command }), "--mode", mode, "--json"],
        w,
      );
      expect(result.stderr).toBe("");
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stdout)).toMatchObject({
        behavior: "ask",
        decisionReason: { type: "safetyCheck", check: "analyzer-error" },
        details: { analyzer: "ask", check: "analyzer-error" },
      });
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

  it.each([
    {
      args: ["Read", '{"file_path": "/etc/hostname"}', "--allow", "Read"],
      text: /^ALLOW: Read allowed by the cliArg rule allow: Read\ndecided by: allow rule Read from cliArg settings\n$/,
    },
    {
      // A decision that comes without a message says what its decider said.
      args: ["Read", '{"file_path": "WORLD/inside.txt"}'],
      text: /^ALLOW: reading inside the working directories\ndecided by: the tool's own check \(inside-working-dirs\)\n$/,
    },
    {
      args: ["Bash", '{"command": "touch x"}'],
      text: /^ASK: Bash needs approval: touch changes files\ndecided by: no rule covers this call, so a person is asked\nto stop the question: allow rule Bash\(touch:\*\)\n$/,
    },
    {
      args: ["Bash", '{"command": "ls | wc -l"}'],
      text: /^ALLOW: Bash: read-only inside the working directories\ndecided by: the tool's own check \(bash-analyzer\)\n$/,
    },
  ])(
    "text mode is the decision, a one-line reason and who decided: check $args.0",
    async ({ args, text }) => {
      const w = keelWorld();
      const input = args.map((arg) => arg.replace("WORLD", w.project));
      const plain = await runKeel(["check", ...input], w);
      expect(plain.stdout).toMatch(text);
      expect(plain.stdout).not.toMatch(/\(no message\)|details:/);
      const verbose = await runKeel(["check", ...input, "--verbose"], w);
      expect(verbose.stdout.startsWith(plain.stdout)).toBe(true);
      const json = JSON.parse((await runKeel(["check", ...input, "--json"], w)).stdout) as Record<
        string,
        unknown
      >;
      if (args[0] === "Bash") {
        expect(verbose.stdout).toMatch(/\ndetails: \{\n {2}"analyzer"/);
        expect(json.details).toMatchObject({ parts: expect.any(Array) });
      } else expect(verbose.stdout).toBe(plain.stdout);
    },
  );

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
    // A policy Keel cannot read refuses every call, saying where and why (the agent shows the reason).
    expect(hook.code).toBe(0);
    const answer = JSON.parse(hook.stdout).hookSpecificOutput;
    expect(answer.permissionDecision).toBe("deny");
    expect(answer.permissionDecisionReason).toContain(`${file}:1:1 cannot be read: the file is`);
    expect(hook.stderr).toContain(`${file}:1:1`);
  });
});
