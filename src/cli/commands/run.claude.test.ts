// Claude Code's command line and print-mode output, as people type them: `keel -p`, --allowedTools and
// friends, --permission-mode, --system-prompt, -c / -r, --input-format stream-json, and the result
// object with permission_denials. Real `keel` processes against the scripted model server.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliProviderArgs, startServer } from "../../agent/testing/harness.ts";
import { type Script, text, toolUse } from "../../agent/testing/script.ts";
import type { ScriptedServer } from "../../agent/testing/server.ts";
import { jsonLines, type KeelWorld, keelWorld, runKeel } from "../testing/keelProcess.ts";

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(script: Script): Promise<ScriptedServer> {
  const server = await startServer("anthropic", script);
  servers.push(server);
  return server;
}

const systemText = (server: ScriptedServer, index = 0) => JSON.stringify(server.requests[index]!.body.system);
const toolNames = (server: ScriptedServer, index = 0) =>
  (server.requests[index]!.body.tools as Array<{ name: string }>).map((tool) => tool.name);

function editScript(w: KeelWorld): { file: string; script: Script } {
  const file = join(w.project, "notes.txt");
  writeFileSync(file, "old line\n");
  return {
    file,
    script: [
      { blocks: [toolUse("Read", { file_path: file }, "read_1")] },
      { blocks: [toolUse("Edit", { file_path: file, old_string: "old", new_string: "new" }, "edit_1")] },
      { blocks: [text("Done.")] },
    ],
  };
}

describe("keel run tells the truth about refusals", () => {
  it("text mode: the refused Edit is printed on stderr, with a closing note; the answer on stdout", async () => {
    const w = keelWorld();
    const { file, script } = editScript(w);
    const server = await serve(script);
    const result = await runKeel(["run", ...cliProviderArgs(server), "fix the notes"], w);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Done.\n");
    expect(result.stderr).toMatch(/^keel: refused Edit\(.*notes\.txt\): .*nobody can give it/m);
    expect(result.stderr).toMatch(/1 tool call was refused \(see above\), so the task may be incomplete/);
    expect(readFileSync(file, "utf8")).toBe("old line\n");
  });

  it("json: Claude Code's result shape with permission_denials listing the refused call", async () => {
    const w = keelWorld();
    const { file, script } = editScript(w);
    const server = await serve(script);
    const result = await runKeel(
      ["-p", "fix the notes", ...cliProviderArgs(server), "--output-format", "json"],
      w,
    );
    expect(result.code).toBe(0);
    const record = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(record).toMatchObject({
      type: "result",
      subtype: "success",
      is_error: false,
      num_turns: 3,
      result: "Done.",
      total_cost_usd: null,
      terminal_reason: "completed",
      permission_denials: [
        {
          tool_name: "Edit",
          tool_use_id: "edit_1",
          tool_input: { file_path: file, old_string: "old", new_string: "new" },
        },
      ],
    });
    expect(record.session_id).toEqual(expect.any(String));
    expect(record.usage).toMatchObject({
      input_tokens: expect.any(Number),
      output_tokens: expect.any(Number),
    });
    expect(record.duration_ms).toEqual(expect.any(Number));
    expect(record.duration_api_ms).toEqual(expect.any(Number));
  });

  it("--allowedTools (comma list) lets the edit through: no denial, the file changed", async () => {
    const w = keelWorld();
    const { file, script } = editScript(w);
    const server = await serve(script);
    const result = await runKeel(
      [
        "-p",
        "fix the notes",
        ...cliProviderArgs(server),
        "--output-format",
        "json",
        "--allowedTools",
        "Read,Edit",
      ],
      w,
    );
    expect(JSON.parse(result.stdout)).toMatchObject({ subtype: "success", permission_denials: [] });
    expect(readFileSync(file, "utf8")).toBe("new line\n");
  });

  it("a call to a tool hidden by --disallowedTools is refused by that rule, and the audit log says so", async () => {
    const w = keelWorld();
    const target = join(w.project, "out.txt");
    const server = await serve([
      { blocks: [toolUse("Write", { file_path: target, content: "x" }, "write_1")] },
      { blocks: [text("I could not write it.")] },
    ]);
    const result = await runKeel(
      ["-p", "write it", ...cliProviderArgs(server), "--output-format", "json", "--disallowedTools", "Write"],
      w,
    );
    expect(JSON.parse(result.stdout)).toMatchObject({
      permission_denials: [{ tool_name: "Write", tool_use_id: "write_1", tool_input: { file_path: target } }],
    });
    const auditDir = join(w.home, ".keel", "audit");
    const entries = readdirSync(auditDir)
      .flatMap((name) => readFileSync(join(auditDir, name), "utf8").trim().split("\n"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toEqual([
      expect.objectContaining({
        tool: "Write",
        behavior: "deny",
        decidedBy: "deny rule Write from cliArg settings",
        errorCode: "permission_denied",
      }),
    ]);
  });

  it("a retry notice is its own sentence after the error's", async () => {
    const w = keelWorld();
    const server = await serve([
      { httpError: { status: 429, retryAfterSeconds: 0 } },
      { blocks: [text("ok")] },
    ]);
    const result = await runKeel(["-p", "hi", ...cliProviderArgs(server)], w);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^keel: \S.*[.!?] Retrying in \d+\.\d s \(attempt 1\)\.$/m);
  });

  it("error subtypes: --max-turns is error_max_turns with errors[]", async () => {
    const w = keelWorld();
    const server = await serve([
      { blocks: [toolUse("LS", { path: w.project })] },
      { blocks: [text("never")] },
    ]);
    const result = await runKeel(
      ["run", ...cliProviderArgs(server), "--max-turns", "1", "--output-format", "json", "list"],
      w,
    );
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      subtype: "error_max_turns",
      is_error: true,
      errors: ["Reached maximum number of turns (1)"],
      // Claude Code's count: the model call made and the one the limit refused; no `result` on errors.
      num_turns: 2,
      model_calls: 1,
      stop_reason: "tool_use",
    });
    expect(JSON.parse(result.stdout)).not.toHaveProperty("result");
  });
});

describe("Claude Code's flags", () => {
  it("--allowedTools takes several values; --allowed-tools is the same list", async () => {
    const w = keelWorld();
    const { file, script } = editScript(w);
    const server = await serve(script);
    // The task first: the list flag takes every word after it, as Claude Code's does.
    const result = await runKeel(
      ["-p", "fix the notes", ...cliProviderArgs(server), "--allowed-tools", "Read", "Edit"],
      w,
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(readFileSync(file, "utf8")).toBe("new line\n");
  });

  it("--disallowedTools hides a tool from the model; --disallowed-tools too", async () => {
    const w = keelWorld();
    const server = await serve([{ blocks: [text("ok")] }, { blocks: [text("ok")] }]);
    await runKeel(
      ["run", ...cliProviderArgs(server), "--disallowedTools", "Bash", "WebFetch", "--", "hi"],
      w,
    );
    await runKeel(["run", ...cliProviderArgs(server), "--disallowed-tools", "Bash,WebFetch", "--", "hi"], w);
    for (const index of [0, 1]) {
      expect(toolNames(server, index)).not.toContain("Bash");
      expect(toolNames(server, index)).not.toContain("WebFetch");
      expect(toolNames(server, index)).toContain("Read");
    }
  });

  it.each([
    [
      ["--allowedTools", "Bash(ls"],
      /^keel: --allowedTools: Invalid permission rule "Bash\(ls": the specifier must end with '\)'/,
    ],
    [["--disallowed-tools", "Read("], /^keel: --disallowed-tools: Invalid permission rule "Read\("/],
    [["--allow", "Bash(ls"], /^keel: --allow: Invalid permission rule/],
    [["--permission-mode", "yolo"], /^keel: --permission-mode: Unknown permission mode "yolo"/],
    [
      ["--mode", "plan", "--dangerously-skip-permissions"],
      /--mode plan and --dangerously-skip-permissions bypassPermissions disagree/,
    ],
  ])("a bad value is reported under the flag typed: %j", async (flags, message) => {
    const w = keelWorld();
    const server = await serve([{ blocks: [text("never")] }]);
    const result = await runKeel(["run", ...cliProviderArgs(server), ...flags, "--", "hi"], w);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/Fix the settings file/);
    expect(server.requests).toHaveLength(0);
  });

  it("a misspelt tool in a rule flag is a warning naming the flag and the likely tool", async () => {
    const w = keelWorld();
    const server = await serve([{ blocks: [text("ok")] }]);
    const result = await runKeel(["-p", "hi", ...cliProviderArgs(server), "--allowedTools", "Raed"], w);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'keel: --allowedTools "Raed": no tool is named "Raed", so the rule matches nothing; did you mean "Read"?',
    );
  });

  it("-p after a list flag ends the list, as in Claude Code: `--allowedTools Read Edit -p task`", async () => {
    const w = keelWorld();
    const { file, script } = editScript(w);
    const server = await serve(script);
    const result = await runKeel(
      [...cliProviderArgs(server), "--allowedTools", "Read", "Edit", "-p", "fix the notes"],
      w,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
    expect(JSON.stringify(server.requests[0]!.body.messages)).toContain("fix the notes");
    expect(readFileSync(file, "utf8")).toBe("new line\n");
  });

  it("the task eaten by a list flag gets a hint", async () => {
    const w = keelWorld();
    const server = await serve([{ blocks: [text("never")] }]);
    const result = await runKeel(["run", ...cliProviderArgs(server), "--allowedTools", "Read", "fix it"], w);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /--allowedTools takes every word after it as a rule: put the task before it, or end the list with --/,
    );
  });

  it("--permission-mode and --dangerously-skip-permissions set the mode", async () => {
    const w = keelWorld();
    const server = await serve([{ blocks: [text("ok")] }, { blocks: [text("ok")] }]);
    const plan = await runKeel(
      ["-p", "hi", ...cliProviderArgs(server), "--permission-mode", "plan", "--output-format", "stream-json"],
      w,
    );
    expect(jsonLines(plan.stdout)[0]).toMatchObject({ subtype: "init", permissionMode: "plan" });
    const bypass = await runKeel(
      [
        "-p",
        "hi",
        ...cliProviderArgs(server),
        "--dangerously-skip-permissions",
        "--output-format",
        "stream-json",
      ],
      w,
    );
    expect(jsonLines(bypass.stdout)[0]).toMatchObject({ permissionMode: "bypassPermissions" });
  });

  it("--system-prompt replaces Keel's instructions; --append-system-prompt adds to them", async () => {
    const w = keelWorld();
    const server = await serve([{ blocks: [text("ok")] }, { blocks: [text("ok")] }]);
    await runKeel(["-p", "hi", ...cliProviderArgs(server), "--system-prompt", "You are a pirate."], w);
    await runKeel(["-p", "hi", ...cliProviderArgs(server), "--append-system-prompt", "Answer briefly."], w);
    expect(systemText(server, 0)).toContain("You are a pirate.");
    expect(systemText(server, 0)).not.toContain("Working directory:");
    expect(systemText(server, 1)).toContain("Working directory:");
    expect(systemText(server, 1)).toContain("Answer briefly.");
  });

  it("-c continues the project's last session; -r <id> resumes that one", async () => {
    const w = keelWorld();
    const server = await serve([
      { blocks: [text("My name is Keel.")] },
      { blocks: [text("I said Keel.")] },
      { blocks: [text("Still Keel.")] },
    ]);
    const one = await runKeel(
      ["-p", "what is your name?", ...cliProviderArgs(server), "--output-format", "json"],
      w,
    );
    const sessionId = (JSON.parse(one.stdout) as { session_id: string }).session_id;
    const two = await runKeel(
      ["-c", "-p", "what did you say?", ...cliProviderArgs(server), "--output-format", "json"],
      w,
    );
    expect(JSON.parse(two.stdout)).toMatchObject({ session_id: sessionId, result: "I said Keel." });
    expect(JSON.stringify(server.requests[1]!.body.messages)).toContain("My name is Keel.");
    const three = await runKeel(
      ["-r", sessionId, "-p", "again?", ...cliProviderArgs(server), "--output-format", "json"],
      w,
    );
    expect(JSON.parse(three.stdout)).toMatchObject({ session_id: sessionId, result: "Still Keel." });
    expect(JSON.stringify(server.requests[2]!.body.messages)).toContain("I said Keel.");
  });

  it("--input-format stream-json: one user message per line, each answered in one session", async () => {
    const w = keelWorld();
    const server = await serve([{ blocks: [text("First answer.")] }, { blocks: [text("Second answer.")] }]);
    const stdin = [
      JSON.stringify({ type: "user", message: { role: "user", content: "first question" } }),
      "",
      JSON.stringify({
        type: "user",
        message: { role: "user", content: [{ type: "text", text: "second question" }] },
      }),
    ].join("\n");
    const result = await runKeel(
      ["-p", ...cliProviderArgs(server), "--input-format", "stream-json", "--output-format", "stream-json"],
      w,
      stdin,
    );
    expect(result.code).toBe(0);
    const results = jsonLines(result.stdout).filter((line) => line.type === "result");
    expect(results.map((line) => line.result)).toEqual(["First answer.", "Second answer."]);
    expect(results[0]!.session_id).toBe(results[1]!.session_id);
    const second = JSON.stringify(server.requests[1]!.body.messages);
    expect(second).toContain("first question");
    expect(second).toContain("second question");
  });

  it.each([
    [["--input-format", "stream-json"], "needs --output-format stream-json"],
    [["--input-format", "xml", "--output-format", "stream-json"], 'Unknown --input-format "xml"'],
  ])("--input-format misuse is a usage error: %j", async (flags, message) => {
    const w = keelWorld();
    const server = await serve([{ blocks: [text("never")] }]);
    const result = await runKeel(["run", ...cliProviderArgs(server), ...flags], w, "");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it("a stdin line that is not a user message stops with its line number", async () => {
    const w = keelWorld();
    const server = await serve([{ blocks: [text("never")] }]);
    const result = await runKeel(
      ["run", ...cliProviderArgs(server), "--input-format", "stream-json", "--output-format", "stream-json"],
      w,
      '{"type":"assistant"}\n',
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/stdin line 1 is not a user message \("type" must be "user"\)/);
  });
});
