// The real `keel` program in a child process: output, exit codes, the audit log, a terminal-less ask.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const entry = join(import.meta.dirname, "entry.ts");
let project: string;
let home: string;

function keel(args: string[], input?: string) {
  const run = spawnSync(process.execPath, [entry, ...args], {
    cwd: project,
    input: input ?? "",
    encoding: "utf8",
    env: { ...process.env, KEEL_HOME: home, HOME: home },
    timeout: 60_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

beforeAll(() => {
  project = realpathSync(mkdtempSync(join(tmpdir(), "keel-cli-")));
  home = realpathSync(mkdtempSync(join(tmpdir(), "keel-cli-home-")));
  writeFileSync(join(project, "notes.txt"), "alpha\nbeta\ngamma\n");
});
afterAll(() => {
  rmSync(project, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

describe("keel CLI", () => {
  it("lists tools with their flags and schemas as JSON", () => {
    const run = keel(["tools", "--json"]);
    expect(run.code).toBe(0);
    const tools = JSON.parse(run.stdout) as Array<{
      name: string;
      readOnly: boolean;
      inputSchema: { type: string };
    }>;
    const read = tools.find((tool) => tool.name === "Read");
    expect(read).toMatchObject({ readOnly: true, inputSchema: { type: "object" } });
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["Bash", "Edit", "Grep", "Glob", "Write"]),
    );
  });

  it("lists LSP, EnterWorktree, ExitWorktree and Monitor with their flags and parameters", () => {
    const json = JSON.parse(keel(["tools", "--json"]).stdout) as Array<Record<string, unknown>>;
    const byName = (name: string) => json.find((tool) => tool.name === name);
    const flags = { readOnly: true, concurrencySafe: true, destructive: false, deferred: false };
    expect(byName("LSP")).toMatchObject(flags);
    expect(byName("Monitor")).toMatchObject(flags);
    const writes = { readOnly: false, concurrencySafe: false, destructive: false };
    expect(byName("EnterWorktree")).toMatchObject(writes);
    expect(byName("ExitWorktree")).toMatchObject(writes);
    const table = keel(["tools"]).stdout.split("\n");
    const row = (name: string) => table.find((line) => line.startsWith(`${name} `))?.split(/\s{2,}/);
    expect(row("LSP")).toEqual(["LSP", "yes", "yes", "no", "operation, filePath, line, character, query"]);
    expect(row("Monitor")).toEqual([
      "Monitor",
      "yes",
      "yes",
      "no",
      "task_id, pattern, case_insensitive, timeout",
    ]);
    expect(row("EnterWorktree")).toEqual(["EnterWorktree", "no", "no", "no", "name"]);
    expect(row("ExitWorktree")).toEqual(["ExitWorktree", "no", "no", "no", "action, discard_changes"]);
  });

  it("hides a blanket-denied tool", () => {
    const tools = JSON.parse(keel(["tools", "--json", "--deny", "Bash"]).stdout) as Array<{ name: string }>;
    expect(tools.map((tool) => tool.name)).not.toContain("Bash");
  });

  it("runs Read through the pipeline and prints numbered lines", () => {
    const run = keel(["tool", "Read", JSON.stringify({ file_path: join(project, "notes.txt") })]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/1\talpha/);
    expect(run.stdout).toMatch(/3\tgamma/);
  });

  it("reads the input from stdin with -", () => {
    const run = keel(
      ["tool", "Read", "-", "--json"],
      JSON.stringify({ file_path: join(project, "notes.txt") }),
    );
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      is_error: boolean;
      decision: { behavior: string; decidedBy: string };
    };
    expect(report.is_error).toBe(false);
    expect(report.decision.behavior).toBe("allow");
  });

  it("refuses an Edit without a Read in the same process, and leaves the file alone", () => {
    const input = { file_path: join(project, "notes.txt"), old_string: "beta", new_string: "BETA" };
    const run = keel(["tool", "Edit", JSON.stringify(input), "--mode", "acceptEdits"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/[Rr]ead/);
    expect(readFileSync(join(project, "notes.txt"), "utf8")).toContain("beta");
  });

  it("exits 3 when a call needs an approval nobody can give, and when a rule denies", () => {
    const ask = keel([
      "tool",
      "Write",
      JSON.stringify({ file_path: join(project, "new.txt"), content: "x" }),
    ]);
    expect(ask.code, ask.stderr).toBe(3);
    expect(ask.stderr).toMatch(/nobody can give it/);
    const deny = keel([
      "tool",
      "Read",
      JSON.stringify({ file_path: join(project, "notes.txt") }),
      "--deny",
      "Read(./notes.txt)",
    ]);
    expect(deny.code).toBe(3);
  });

  it("exits 2 on usage errors: bad JSON, unknown tool, unknown mode, bad rule", () => {
    expect(keel(["tool", "Read", "{not json"]).code).toBe(2);
    expect(keel(["tool", "Nope", "{}"]).code).toBe(2);
    expect(keel(["tool", "Read", "{}", "--mode", "yolo"]).code).toBe(2);
    expect(keel(["tool", "Read", "{}", "--allow", "Bash(unclosed"]).code).toBe(2);
    expect(keel(["tool"]).stderr).toMatch(/Name a tool \(`keel tools` lists them\), or pass --jsonl/);
    // Words that are no command (nor one typo away from one) are a first prompt for the interactive
    // terminal, which needs a terminal.
    const prompt = keel(["frobnicate"]);
    expect(prompt.code).toBe(2);
    expect(prompt.stderr).toMatch(/needs a terminal/);
  });

  it("options typed before the command name apply to it (never dropped silently)", () => {
    const read = ["tool", "Read", JSON.stringify({ file_path: join(project, "notes.txt") })];
    const denied = keel(["--deny", "Read", ...read]);
    expect(denied.code, denied.stderr).toBe(3);
    expect(denied.stderr).toMatch(/deny rule Read from cliArg settings/);
    const elsewhere = realpathSync(mkdtempSync(join(tmpdir(), "keel-cli-elsewhere-")));
    const pwd = keel(["--cwd", elsewhere, "tool", "Bash", '{"command": "pwd"}']);
    expect(pwd.stdout.trim()).toBe(elsewhere);
    rmSync(elsewhere, { recursive: true, force: true });
    const rules = keel(["--allow", "Edit", "permissions", "--allow", "Write"]).stdout;
    expect(rules).toMatch(/^ {2}Edit +cliArg/m);
    expect(rules).toMatch(/^ {2}Write +cliArg/m);
  });

  it("explains a Bash decision with the check that fired", () => {
    const run = keel([
      "check",
      "Bash",
      JSON.stringify({ command: "rm -rf /" }),
      "--json",
      "--mode",
      "bypassPermissions",
    ]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as {
      behavior: string;
      decidedBy: string;
      details: { check: string };
    };
    expect(report.behavior).toBe("ask");
    expect(report.decidedBy).toMatch(/safety check/);
    expect(report.details.check).toBeTruthy();
    const allowed = JSON.parse(
      keel(["check", "Bash", JSON.stringify({ command: "ls -la" }), "--json"]).stdout,
    );
    expect(allowed.behavior).toBe("allow");
  });

  it("writes every call to the audit log with who decided", () => {
    keel(["tool", "Read", JSON.stringify({ file_path: join(project, "notes.txt") })]);
    const dir = join(home, ".keel", "audit");
    const lines = readdirSync(dir).flatMap((file) =>
      readFileSync(join(dir, file), "utf8").trim().split("\n"),
    );
    const records = lines.map((line) => JSON.parse(line) as { tool: string; decidedBy: string });
    expect(records.some((record) => record.tool === "Read" && record.decidedBy.length > 0)).toBe(true);
  });

  it("calls an MCP server's tool from --mcp-config, governed like any other", () => {
    const server = join(
      import.meta.dirname,
      "../../node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    const config = JSON.stringify({
      mcpServers: { everything: { command: process.execPath, args: [server] } },
    });
    const allowed = keel([
      "tool",
      "mcp__everything__echo",
      '{"message":"hi"}',
      "--mcp-config",
      config,
      "--allow",
      "mcp__everything",
    ]);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain("Echo: hi");
    const unapproved = keel(["tool", "mcp__everything__echo", '{"message":"hi"}', "--mcp-config", config]);
    expect(unapproved.code).toBe(3);
  });

  it("documents keel mcp's limits, --no-auth, HTTP sessions and OAuth in --help", () => {
    const mcp = keel(["mcp", "--help"]);
    expect(mcp.code).toBe(0);
    expect(mcp.stdout).toMatch(/keel mcp serve --help/);
    expect(mcp.stdout).toMatch(/dynamic client registration[\s\S]*PKCE/);
    expect(mcp.stdout).toMatch(/mcp-oauth\.json \(mode 0600\)/);
    const serve = keel(["mcp", "serve", "--help"]);
    expect(serve.stdout).toMatch(/at most 4 MiB/);
    expect(serve.stdout).toMatch(/--no-auth drops the token[\s\S]*loopback/);
    expect(serve.stdout).toMatch(/after --session-timeout without requests/);
    expect(keel(["mcp", "login", "--help"]).stdout).toMatch(/refreshed\s+when they expire/);
  });

  it("prints help for every command", () => {
    const commands = [
      [],
      ["tool"],
      ["tools"],
      ["check"],
      ["run"],
      ["permissions"],
      ["hooks"],
      ["audit"],
      ["hook"],
      ["trust"],
      ["doctor"],
      ["mcp"],
      ["mcp", "serve"],
      ["mcp", "list"],
      ["mcp", "login"],
      ["mcp", "logout"],
    ];
    for (const command of commands) {
      const run = keel([...command, "--help"]);
      expect(run.code, command.join(" ")).toBe(0);
      expect(run.stderr).toBe("");
      expect(run.stdout).toMatch(new RegExp(`^Usage: ${["keel", ...command].join(" ")} `));
    }
  });
});
