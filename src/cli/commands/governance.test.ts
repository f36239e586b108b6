import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ENTRY, runScript } from "../testing/keelProcess.ts";

let root: string;
let project: string;
let home: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "keel-gov-")));
  project = join(root, "project");
  home = join(root, "home");
  mkdirSync(project);
  mkdirSync(home);
  env = {
    PATH: process.env.PATH,
    KEEL_DECISION_SERVER: "off",
    HOME: home,
    KEEL_HOME: home,
    KEEL_MANAGED_SETTINGS: join(root, "managed.json"),
  };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value, null, 2));
}

const keel = (args: string[]) => runScript(ENTRY, args, { cwd: project, env });

const projectSettings = {
  permissions: { allow: ["Bash(npm test)"], deny: ["Read(./.env)"], defaultMode: "acceptEdits" },
  hooks: {
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh", if: "Bash(git *)" }] }],
  },
};

describe("keel permissions / hooks / trust", () => {
  it("shows what an untrusted project gets, then everything once trusted", async () => {
    write(join(project, ".claude", "settings.json"), projectSettings);
    write(join(home, ".keel", "settings.json"), { permissions: { ask: ["WebFetch"] } });
    write(join(root, "managed.json"), { permissions: { deny: ["Bash(curl:*)"] } });

    const before = await keel(["permissions", "--json"]);
    expect(before.code).toBe(0);
    const report = JSON.parse(before.stdout);
    expect(report).toMatchObject({ trusted: false, mode: "default" });
    expect(report.rules).toEqual([
      { behavior: "deny", rule: "Bash(curl:*)", source: "policy", origin: join(root, "managed.json") },
      {
        behavior: "deny",
        rule: "Read(./.env)",
        source: "project",
        origin: join(project, ".claude", "settings.json"),
      },
      { behavior: "ask", rule: "WebFetch", source: "user", origin: join(home, ".keel", "settings.json") },
    ]);
    const hooksBefore = await keel(["hooks"]);
    expect(hooksBefore.stdout).toMatch(/No hooks are configured/);
    expect(hooksBefore.stdout).toMatch(
      /Not loaded \(folder not trusted\): hooks in .*\.claude\/settings\.json/,
    );

    // --trust holds for that one command: nothing is remembered, and the next command is untrusted again.
    const once = JSON.parse((await keel(["permissions", "--trust", "--json"])).stdout);
    expect(once).toMatchObject({ trusted: true, mode: "acceptEdits" });
    expect(existsSync(join(home, ".keel", "config.json"))).toBe(false);
    expect(JSON.parse((await keel(["permissions", "--json"])).stdout)).toMatchObject({ trusted: false });

    const trusted = await keel(["trust"]);
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain(
      `Trusted ${project} (remembered in ${join(home, ".keel", "config.json")}; undo with \`keel trust --revoke ${project}\`).`,
    );
    expect(trusted.stdout).toMatch(
      /now applied from .*settings\.json: 1 allow rule \(Bash\(npm test\)\); defaultMode acceptEdits; hooks \(PreToolUse\)/,
    );

    const after = JSON.parse((await keel(["permissions", "--json"])).stdout);
    expect(after).toMatchObject({ trusted: true, mode: "acceptEdits" });
    expect(after.rules).toContainEqual({
      behavior: "allow",
      rule: "Bash(npm test)",
      source: "project",
      origin: join(project, ".claude", "settings.json"),
    });
    const hooksAfter = await keel(["hooks"]);
    expect(hooksAfter.stdout).toContain("PreToolUse\n  [Bash] if Bash(git *)  ./guard.sh  (600s, project:");

    const revoked = await keel(["trust", "--revoke"]);
    expect(revoked.stdout).toMatch(/is no longer trusted/);
    expect(JSON.parse(readFileSync(join(home, ".keel", "config.json"), "utf8")).trustedFolders).toEqual({});
  });

  it("keel trust of a folder that does not exist (or is a file) is an error, and nothing is remembered", async () => {
    const missing = await keel(["trust", join(root, "no-such-project")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`keel: ${join(root, "no-such-project")} does not exist.`);
    write(join(root, "file.txt"), "x");
    const file = await keel(["trust", join(root, "file.txt")]);
    expect(file.code).toBe(2);
    expect(file.stderr).toMatch(/is not a folder/);
    expect(existsSync(join(home, ".keel", "config.json"))).toBe(false);
  });

  it("a broken settings file stops the command with file:line:col", async () => {
    write(join(project, ".keel", "settings.json"), '{\n  "permissions": {\n    "deny": ["Bash",]\n  }\n}');
    const result = await keel(["permissions"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `${join(project, ".keel", "settings.json")}:3:21: invalid JSON: trailing comma`,
    );
    expect(result.stdout).toBe("");
  });
});

describe("keel audit", () => {
  it("shows records of one session, as text and as JSON", async () => {
    const record = (sessionId: string, tool: string) => ({
      time: "2026-11-02T10:00:00.000Z",
      sessionId,
      toolUseId: "t",
      tool,
      inputSummary: '{"command":"ls"}',
      behavior: "allow",
      decidedBy: "allow rule Bash(ls) from project settings",
      hooks: [],
      durationMs: { total: 12, permission: 1, call: 10 },
      resultChars: 42,
      isError: false,
    });
    write(
      join(home, ".keel", "audit", "2026-11-02.jsonl"),
      `${JSON.stringify(record("aaaa1111", "Bash"))}\n${JSON.stringify(record("bbbb2222", "Read"))}\n`,
    );
    const text = await keel(["audit", "--session", "aaaa1111"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /aaaa1111\s+Bash\s+allow\s+by allow rule Bash\(ls\) from project settings\s+12ms\s+42 chars\s+ok/,
    );
    expect(text.stdout).not.toContain("bbbb2222");
    const json = await keel(["audit", "--json"]);
    expect(
      json.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).sessionId),
    ).toEqual(["aaaa1111", "bbbb2222"]);
    expect((await keel(["audit", "--limit", "x"])).stderr).toMatch(/--limit takes a whole number/);
    expect(readFileSync(join(home, ".keel", "audit", "2026-11-02.jsonl"), "utf8").split("\n")).toHaveLength(
      3,
    );
  });
});

describe("keel audit: who refused", () => {
  it("a Read a deny rule refuses is recorded as denied by that rule, and counted so", async () => {
    write(join(project, ".env"), "API_KEY=secret\n");
    const read = await keel([
      "tool",
      "Read",
      JSON.stringify({ file_path: join(project, ".env") }),
      "--deny",
      "Read(**/.env)",
    ]);
    expect(read.code).toBe(3);
    expect(read.stdout + read.stderr).not.toContain("API_KEY");
    const records = (await keel(["audit", "--json"])).stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      tool: "Read",
      behavior: "deny",
      decidedBy: "deny rule Read(**/.env) from cliArg settings",
      decisionReason: {
        type: "rule",
        rule: { behavior: "deny", source: "cliArg", value: { toolName: "Read" } },
      },
    });
    const summary = JSON.parse((await keel(["audit", "--summary", "--json"])).stdout) as unknown[];
    expect(summary).toEqual([expect.objectContaining({ tool: "Read", calls: 1, denied: 1, allowed: 0 })]);
  });
});

describe("Keel's own calls and the hook installed for Claude Code", () => {
  it("keel tool does not run `keel hook claude-code` from Claude Code's settings, so no claude-code record appears", async () => {
    const installed = await keel(["hook", "install", "claude-code"]);
    expect(installed.code).toBe(0);
    expect(readFileSync(join(home, ".claude", "settings.json"), "utf8")).toMatch(/hook claude-code/);
    write(join(project, "notes.txt"), "hello\n");
    const read = await keel(["tool", "Read", JSON.stringify({ file_path: join(project, "notes.txt") })]);
    expect(read.code).toBe(0);
    const records = (await keel(["audit", "--json"])).stdout
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.map((record) => [record.tool, record.agent ?? "keel"])).toEqual([["Read", "keel"]]);
  });
});
