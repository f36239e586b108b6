// `keel doctor` on real files and real programs: settings typos and broken files with file:line:col,
// trust, the sandbox's programs, language servers and MCP servers, each problem with its fix, exit 1
// only when something is broken.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../../remote/testing/redisServer.ts";
import { type KeelWorld, keelWorld, runKeel } from "../testing/keelProcess.ts";

const repo = join(import.meta.dirname, "../../..");

function write(path: string, content: unknown): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return path;
}

interface Finding {
  area: string;
  status: "ok" | "warn" | "fail";
  summary: string;
  fix?: string;
}

async function doctor(w: KeelWorld, ...flags: string[]) {
  const text = await runKeel(["doctor", "--no-mcp", ...flags], w);
  const json = await runKeel(["doctor", "--no-mcp", "--json", ...flags], w);
  const findings = (JSON.parse(json.stdout) as { findings: Finding[] }).findings;
  expect(json.code).toBe(text.code);
  return { ...text, findings };
}

describe("keel doctor", () => {
  it("a clean project: node, ripgrep and the built-in language servers are fine, exit 0", async () => {
    const w = keelWorld();
    const result = await doctor(w);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ok {4}node {5}Node v\d+/m);
    expect(result.stdout).toMatch(/^ok {4}ripgrep {2}ripgrep \d+/m);
    expect(result.stdout).toMatch(
      /^ok {4}lsp {6}TypeScript\/JavaScript: built-in language server installed/m,
    );
    expect(result.findings.filter((f) => f.status === "fail")).toEqual([]);
  });

  it("the decision server: off, or a warning with the fix when its folder is not private", async () => {
    const w = keelWorld();
    const off = await doctor(w);
    expect(off.findings).toContainEqual(expect.objectContaining({ area: "daemon", status: "ok" }));
    expect(off.stdout).toMatch(/^ok {4}daemon {3}off \(KEEL_DECISION_SERVER=off\)/m);
    const shared = join(w.root, "servers");
    mkdirSync(shared, { recursive: true });
    chmodSync(shared, 0o777);
    const { KEEL_DECISION_SERVER: _off, ...on } = w.env;
    const open = await doctor({ ...w, env: { ...on, KEEL_DECISION_SERVER_DIR: shared } });
    expect(open.code).toBe(0);
    expect(open.findings).toContainEqual(
      expect.objectContaining({ area: "daemon", status: "warn", fix: expect.stringContaining("mode 700") }),
    );
  });

  it("settings typos are warnings with file:line:col and a guess; still exit 0", async () => {
    const w = keelWorld();
    const file = write(
      join(w.project, ".claude", "settings.json"),
      '{\n  "permisions": {},\n  "permissions": {"deny": ["Raed"]},\n  "hooks": {"PreToolUs": []}\n}\n',
    );
    const result = await doctor(w);
    expect(result.code).toBe(0);
    expect(result.findings).toContainEqual(
      expect.objectContaining({
        status: "warn",
        summary: `${file}:2:3: unknown setting "permisions" (ignored); did you mean "permissions"?`,
      }),
    );
    expect(result.findings).toContainEqual(
      expect.objectContaining({
        status: "warn",
        summary: expect.stringMatching(
          /settings\.json:3:28: rule "Raed": no tool is named "Raed".*did you mean "Read"/,
        ),
      }),
    );
    // The project is not trusted, so its hooks would not run; the typo is reported all the same.
    expect(result.findings).toContainEqual(
      expect.objectContaining({
        status: "warn",
        summary: `${file}:4:13: unknown hook event "PreToolUs" (ignored); did you mean "PreToolUse"?`,
      }),
    );
    expect(result.stdout).toContain("fix: Correct the name; Keel ignores what it does not know.");
  });

  it("a broken settings file is a failure naming the place, the other checks still run; exit 1", async () => {
    const w = keelWorld();
    const file = write(join(w.home, ".keel", "settings.json"), '{"permissions": {"allow": ["Read",]}}');
    const result = await doctor(w);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      new RegExp(`^FAIL  settings ${file.replace(/[.]/g, "\\.")}:1:\\d+: invalid JSON`, "m"),
    );
    expect(result.stdout).toMatch(/^ok {4}node /m);
    expect(result.stdout).toMatch(/were not checked: the settings do not load/);
    expect(result.stdout).toMatch(/1 problem|2 problems/);
  });

  it("an untrusted project with loosening settings: a warning with `keel trust`", async () => {
    const w = keelWorld();
    write(join(w.project, ".keel", "settings.json"), { permissions: { allow: ["Bash"] } });
    const result = await doctor(w);
    expect(result.code).toBe(0);
    expect(result.findings).toContainEqual(
      expect.objectContaining({
        area: "trust",
        status: "warn",
        fix: `If you trust this folder: keel trust ${w.project}`,
      }),
    );
  });

  it("without bubblewrap and socat: a warning, or a failure when settings turn the sandbox on", async () => {
    const w = keelWorld();
    w.env.PATH = dirname(process.execPath);
    const off = await doctor(w);
    expect(off.findings).toContainEqual(
      expect.objectContaining({
        area: "sandbox",
        status: "warn",
        summary: expect.stringMatching(/^bwrap and socat not found/),
        fix: "Install them (Debian/Ubuntu: apt-get install bubblewrap socat).",
      }),
    );
    // Without bubblewrap nothing confines Bash calls either: doctor says what that changes and the fix.
    expect(off.findings).toContainEqual(
      expect.objectContaining({
        area: "confinement",
        status: "warn",
        summary: expect.stringMatching(/cannot run confined.*ask$/),
        fix: "Install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap).",
      }),
    );
    write(join(w.home, ".keel", "settings.json"), { sandbox: { enabled: true } });
    const on = await doctor(w);
    expect(on.code).toBe(1);
    expect(on.findings).toContainEqual(
      expect.objectContaining({
        area: "sandbox",
        status: "fail",
        summary: expect.stringMatching(/every Bash call fails/),
      }),
    );
  });

  it("a configured language server whose command is missing fails with where it is configured", async () => {
    const w = keelWorld();
    const file = write(join(w.home, ".keel", "settings.json"), {
      lspServers: { go: { command: "no-such-gopls", extensionToLanguage: { ".go": "go" } } },
    });
    const result = await doctor(w);
    expect(result.code).toBe(1);
    expect(result.findings).toContainEqual({
      area: "lsp",
      status: "fail",
      summary: `go: command "no-such-gopls" not found (lspServers.go in ${file})`,
      fix: "Install no-such-gopls and put it on PATH, or correct the command.",
    });
  });

  it("MCP servers are started and reported: a working one ok, a broken one a failure (exit 1)", async () => {
    const w = keelWorld();
    const filesystemServer = join(repo, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
    write(join(w.home, ".keel", "settings.json"), {
      mcpServers: {
        files: { command: process.execPath, args: [filesystemServer, w.project] },
        broken: { command: join(w.root, "no-such-server") },
      },
    });
    const result = await runKeel(["doctor", "--json"], w);
    expect(result.code).toBe(1);
    const findings = (JSON.parse(result.stdout) as { findings: Finding[] }).findings.filter(
      (f) => f.area === "mcp",
    );
    expect(findings).toEqual([
      expect.objectContaining({
        status: "ok",
        summary: expect.stringMatching(/^files: connected, \d+ tools/),
      }),
      expect.objectContaining({
        status: "fail",
        summary: expect.stringMatching(/^broken: failed/),
        fix: expect.stringContaining("keel mcp list"),
      }),
    ]);
  });

  it("a remote-agent queue: none configured says nothing; one that does not answer fails (exit 1) without its password", async () => {
    const w = keelWorld();
    expect((await doctor(w)).findings.filter((f) => f.area === "remote")).toEqual([]);
    const port = await freePort();
    w.env.KEEL_REMOTE_QUEUE = `redis://:hunter2-secret@127.0.0.1:${port}`;
    const result = await doctor(w);
    expect(result.code).toBe(1);
    expect(result.findings.filter((f) => f.area === "remote")).toEqual([
      {
        area: "remote",
        status: "fail",
        summary: expect.stringContaining(
          `Could not reach the remote-agent queue at redis://:***@127.0.0.1:${port} (KEEL_REMOTE_QUEUE): connection refused`,
        ),
        fix: expect.stringContaining("Start Redis there"),
      },
    ]);
    expect(result.stdout).not.toContain("hunter2-secret");
  });
});
