// `keel run` as a real child process against scripted provider servers on 127.0.0.1.
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliProviderArgs, startServer, TEST_KEY } from "../../agent/testing/harness.ts";
import { type Script, text, toolUse } from "../../agent/testing/script.ts";
import type { ScriptedServer } from "../../agent/testing/server.ts";
import { sandboxUnavailableReason } from "../../shell/sandbox/sandbox.ts";
import { ENTRY, type KeelWorld, keelWorld, runScript } from "../testing/keelProcess.ts";

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A world for this test with a key for either protocol. */
function world(): KeelWorld {
  const made = keelWorld();
  made.env.OPENAI_API_KEY = TEST_KEY;
  return made;
}

async function serve(
  script: Script,
  protocol: "anthropic" | "openai" = "anthropic",
): Promise<ScriptedServer> {
  const server = await startServer(protocol, script);
  servers.push(server);
  return server;
}

/** `keel` in a child process; with `killAfterMs`, one still running then is killed (its code is null). */
const keel = (args: string[], w: KeelWorld, killAfterMs?: number) =>
  runScript(ENTRY, args, {
    cwd: w.project,
    env: w.env,
    ...(killAfterMs === undefined ? {} : { killAfterMs }),
  });

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const base = cliProviderArgs;

describe("keel run", () => {
  it("streams the answer as text and exits 0", async () => {
    const w = world();
    const server = await serve([{ blocks: [text("Hello from the model.")] }]);
    const result = await keel(["run", ...base(server), "say hello"], w);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("Hello from the model.\n");
    expect(result.code).toBe(0);
    const body = server.requests[0]!.body as {
      messages: Array<{ content: Array<{ text: string }> }>;
      system: Array<{ text: string }>;
    };
    expect(body.messages[0]!.content[0]!.text).toBe("say hello");
    expect(JSON.stringify(body.system)).toContain(`Working directory: ${w.project}`);
  });

  it.skipIf(sandboxUnavailableReason() !== undefined)(
    "with the sandbox on, Bash runs inside bubblewrap and the run still ends (its proxies are stopped)",
    async () => {
      const w = world();
      mkdirSync(join(w.project, ".keel"));
      writeFileSync(
        join(w.project, ".keel", "settings.json"),
        JSON.stringify({ sandbox: { enabled: true } }),
      );
      const server = await serve([
        { blocks: [toolUse("Bash", { command: "ps -o comm= -p 1", description: "First process" })] },
        { blocks: [text("Sandboxed.")] },
      ]);
      // Without the stop, the sandbox's proxies kept the process running after the answer.
      const result = await keel(
        ["run", "--trust", "--allowedTools", "Bash", ...base(server), "look"],
        w,
        20_000,
      );
      expect(result.stdout).toBe("Sandboxed.\n");
      expect(result.code).toBe(0);
      expect(JSON.stringify(server.requests[1]!.body.messages)).toContain("bwrap");
    },
  );

  it("runs a tool through the pipeline and prints one JSON result", async () => {
    const w = world();
    writeFileSync(join(w.project, "notes.txt"), "the secret word is keel\n");
    const server = await serve([
      { blocks: [toolUse("Read", { file_path: join(w.project, "notes.txt") })] },
      { blocks: [text("The word is keel.")], usage: { input_tokens: 1000, output_tokens: 10 } },
    ]);
    const result = await keel(["run", ...base(server), "--output-format", "json", "read the notes"], w);
    expect(result.code).toBe(0);
    const record = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(record).toMatchObject({
      type: "result",
      subtype: "success",
      is_error: false,
      result: "The word is keel.",
      num_turns: 2,
      usage: { input_tokens: 1100, output_tokens: 30 },
    });
    expect(JSON.stringify(server.requests[1]!.body.messages)).toContain("the secret word is keel");
    // Every call lands in the audit log under the user's Keel folder.
    const auditDir = join(w.home, ".keel", "audit");
    const audit = readdirSync(auditDir)
      .map((name) => readFileSync(join(auditDir, name), "utf8"))
      .join("");
    const entry = JSON.parse(audit.trim().split("\n")[0]!) as Record<string, unknown>;
    expect(entry).toMatchObject({ tool: "Read", behavior: "allow", sessionId: record.session_id });
  });

  it("stream-json: one line per event; a deny rule stops a tool and the model is told", async () => {
    const w = world();
    const target = join(w.project, "out.txt");
    const server = await serve(
      [
        { blocks: [toolUse("Write", { file_path: target, content: "x" })] },
        { blocks: [text("I could not write it.")] },
      ],
      "openai",
    );
    const result = await keel(
      [
        "run",
        "--provider",
        "openai",
        "--base-url",
        `${server.url}/v1`,
        "--model",
        "gpt-test",
        "--deny",
        "Write",
        "--output-format",
        "stream-json",
        "write a file",
      ],
      w,
    );
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => (line.type === "system" ? `system/${line.subtype}` : line.type))).toEqual([
      "system/init",
      "assistant",
      "system/tool_decision",
      // Refused by the deny rule: listed in the result's permission_denials, announced as Claude Code does.
      "system/permission_denied",
      "user",
      "assistant",
      "result",
    ]);
    expect(lines[0]).toMatchObject({ subtype: "init", provider: "openai", model: "gpt-test" });
    // Every line carries the session and a uuid of its own, as Claude Code's do.
    for (const line of lines)
      expect(line).toMatchObject({ session_id: lines[0]!.session_id, uuid: expect.any(String) });
    expect(lines[1]).toMatchObject({
      parent_tool_use_id: null,
      message: { model: "gpt-test", id: expect.any(String) },
    });
    // A blanket deny hides the tool from the model, so the pipeline reports it unknown.
    expect(lines[2]).toMatchObject({ tool_name: "Write", is_error: true });
    expect((lines[0]!.tools as string[]).includes("Write")).toBe(false);
  });

  it("an ask in a non-interactive run is refused, with the reason for the model", async () => {
    const w = world();
    const target = join(w.project, "out.txt");
    const server = await serve([
      { blocks: [toolUse("Write", { file_path: target, content: "x" })] },
      { blocks: [text("Refused, as expected.")] },
    ]);
    const result = await keel(["run", ...base(server), "--output-format", "stream-json", "write a file"], w);
    expect(result.code).toBe(0);
    const decision = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.subtype === "tool_decision");
    expect(decision).toMatchObject({
      type: "system",
      tool_name: "Write",
      is_error: true,
      behavior: "deny",
      decided_by: "nobody to ask (non-interactive)",
      decision: "reject",
      source: "config",
    });
    expect(JSON.stringify(server.requests[1]!.body.messages)).toMatch(/nobody can give it/);
  });

  it.each([
    {
      name: "a bad key",
      env: { ANTHROPIC_API_KEY: "wrong" },
      code: 2,
      message: /rejected the credentials \(401\)/,
    },
    {
      name: "an unknown model",
      script: [{ httpError: { status: 404, message: "model: nope" } }],
      code: 2,
      message: /does not know model/,
    },
    {
      name: "rate limits that never end",
      script: Array.from({ length: 10 }, () => ({ httpError: { status: 429, retryAfterSeconds: 0 } })),
      code: 1,
      message: /rate limiting/,
    },
  ])("exits $code with a clear message on $name", async ({ env, script, code, message }) => {
    const w = world();
    Object.assign(w.env, env ?? {});
    const server = await startServer("anthropic", script ?? [{ blocks: [text("never")] }]);
    servers.push(server);
    const result = await keel(["run", ...base(server), "hi"], w);
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("exits 2 when the endpoint is unreachable or no key is set", async () => {
    const w = world();
    const port = await closedPort();
    const unreachable = await keel(
      ["run", "--provider", "openai", "--base-url", `http://127.0.0.1:${port}/v1`, "hi"],
      w,
    );
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toContain(
      `Could not reach the OpenAI-compatible endpoint at http://127.0.0.1:${port}/v1 (ECONNREFUSED)`,
    );
    delete w.env.ANTHROPIC_API_KEY;
    const noKey = await keel(["run", "--provider", "anthropic", "hi"], w);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/set ANTHROPIC_API_KEY/);
  });

  it("Ctrl-C (SIGINT) interrupts the run: exit 130, the partial answer printed", async () => {
    const w = world();
    const server = await serve([{ blocks: [text("Working on it"), text("never")], hangAfterBlocks: 1 }]);
    const child = spawn(process.execPath, [ENTRY, "run", ...base(server), "long task"], {
      cwd: w.project,
      env: w.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let sent = false;
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      if (!sent && stdout.includes("Working on it")) {
        sent = true;
        child.kill("SIGINT");
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(130);
    expect(stdout).toBe("Working on it\n");
    expect(stderr).toMatch(/stopped \(interrupted\)/);
  });

  it("--continue picks up the last session of the project", async () => {
    const w = world();
    const first = await serve([{ blocks: [text("My name is Keel.")] }]);
    const one = await keel(["run", ...base(first), "--output-format", "json", "what is your name?"], w);
    const sessionId = (JSON.parse(one.stdout) as { session_id: string }).session_id;
    const second = await serve([{ blocks: [text("I said Keel.")] }]);
    const two = await keel(
      ["run", ...base(second), "--continue", "--output-format", "json", "what did you say?"],
      w,
    );
    expect(two.code).toBe(0);
    expect(JSON.parse(two.stdout)).toMatchObject({ session_id: sessionId, result: "I said Keel." });
    const messages = JSON.stringify(second.requests[0]!.body.messages);
    expect(messages).toContain("what is your name?");
    expect(messages).toContain("My name is Keel.");
    const three = await keel(["run", ...base(second), "--resume", "no-such-id", "hi"], w);
    expect(three.code).toBe(2);
    expect(three.stderr).toMatch(/No session "no-such-id"/);
  });
});
