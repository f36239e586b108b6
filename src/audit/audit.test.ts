import {
  appendFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { flattenHooks } from "../hooks/config.ts";
import { HookRunner } from "../hooks/runner.ts";
import { runToolUse } from "../pipeline/runToolUse.ts";
import type { AuditRecord, PipelineServices } from "../pipeline/services.ts";
import { echoTool } from "../pipeline/testing/tools.ts";
import { createToolUseContext } from "../tool/createContext.ts";
import { auditDir, auditFileFor, JsonlAuditSink } from "./jsonlSink.ts";
import { formatAuditRecord, readAuditRecords } from "./readAudit.ts";
import { createRedactor, isSecretName } from "./redact.ts";

let home: string;
beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), "keel-audit-")));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const SECRET = "s3cr3t-value-0123456789";
const env = (): NodeJS.ProcessEnv => ({
  KEEL_HOME: home,
  MY_SERVICE_TOKEN: SECRET,
  PWD: "/home/someone",
  SHORT_KEY: "abc",
});

async function call(services: PipelineServices, sessionId: string, text: string, allow = ["Echo"]) {
  const context = createToolUseContext({ tools: [echoTool()], cwd: home, sessionId, allow });
  for await (const _event of runToolUse(
    { type: "tool_use", id: `tu-${text.length}`, name: "Echo", input: { text } },
    context,
    services,
  )) {
    // Drain.
  }
}

describe("JsonlAuditSink through the pipeline", () => {
  it("appends one redacted line per call under ~/.keel/audit, readable by the user only", async () => {
    const sink = new JsonlAuditSink({ env: env() });
    expect(sink.dir).toBe(join(home, ".keel", "audit"));
    const hooks = new HookRunner({
      hooks: flattenHooks(
        { PreToolUse: [{ hooks: [{ type: "command", command: "cat >/dev/null; exit 0" }] }] },
        "user",
      ).hooks,
      projectDir: home,
    });
    await call({ audit: sink, hooks }, "session-a", `deploy with ${SECRET} please`);
    await call({ audit: sink }, "session-b", "second", []);
    const file = auditFileFor(auditDir(env()), new Date().toISOString());
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain(SECRET);
    expect(text).toContain("[REDACTED:MY_SERVICE_TOKEN]");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const lines = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as AuditRecord);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      sessionId: "session-a",
      tool: "Echo",
      behavior: "allow",
      decidedBy: "allow rule Echo from cliArg settings",
      hooks: [{ event: "PreToolUse", outcome: "success", exitCode: 0 }],
      isError: false,
      resultChars: `deploy with ${SECRET} please`.length,
    });
    expect(lines[0]?.durationMs.total).toBeGreaterThanOrEqual(0);
    expect(lines[1]).toMatchObject({
      sessionId: "session-b",
      behavior: "deny",
      decidedBy: expect.stringMatching(/nobody to ask/),
      isError: true,
    });
  });

  it("appends without rewriting what is there, and reads back by session, skipping a torn line", async () => {
    const sink = new JsonlAuditSink({ env: env() });
    await call({ audit: sink }, "one", "a");
    const file = auditFileFor(sink.dir, new Date().toISOString());
    const before = readFileSync(file, "utf8");
    appendFileSync(file, '{"torn": \n');
    await call({ audit: sink }, "two", "bb");
    await call({ audit: sink }, "one", "ccc");
    expect(readFileSync(file, "utf8").startsWith(before)).toBe(true);
    const read = readAuditRecords({ dir: sink.dir, sessionId: "one" });
    expect(read.records.map((r) => r.inputSummary)).toEqual(['{"text":"a"}', '{"text":"ccc"}']);
    expect(read.skippedLines).toBe(1);
    expect(readAuditRecords({ dir: sink.dir, limit: 1 }).records.map((r) => r.sessionId)).toEqual(["one"]);
    expect(formatAuditRecord(read.records[0]!)).toMatch(
      /Echo\s+allow\s+by allow rule Echo from cliArg settings/,
    );
    // A remote agent's decision, as the parent records it: where it was made.
    expect(
      formatAuditRecord({ ...read.records[0]!, worker: "build-box-1", agentId: "agent_0000abcd" }),
    ).toMatch(
      /by allow rule Echo from cliArg settings \(on worker build-box-1, remote agent agent_0000abcd\)/,
    );
  });

  it("reports a write failure once and never fails the call", async () => {
    const messages: string[] = [];
    // A folder path under a plain file cannot be created.
    writeFileSync(join(home, "plain-file"), "");
    const sink = new JsonlAuditSink({
      dir: join(home, "plain-file", "audit"),
      env: env(),
      onError: (m) => messages.push(m),
    });
    await call({ audit: sink }, "s", "a");
    await call({ audit: sink }, "s", "b");
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/could not write the audit log/);
  });
});

function record(time: string, toolUseId: string): AuditRecord {
  return {
    time,
    sessionId: "s",
    toolUseId,
    tool: "Echo",
    inputSummary: "{}",
    behavior: "allow",
    decidedBy: "test",
    hooks: [],
    durationMs: { total: 0, permission: 0, call: 0 },
    resultChars: 0,
    isError: false,
  };
}

const idsIn = (file: string) =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as AuditRecord).toolUseId);

describe("JsonlAuditSink's open file", () => {
  it.each([
    ["2026-03-01T23:59:59.999Z", "2026-03-01.jsonl"],
    ["2026-03-01T23:30:00-05:00", "2026-03-02.jsonl"],
    ["2026-03-01T00:30:00+02:00", "2026-02-28.jsonl"],
  ])("a record at %s goes to %s (UTC date)", (time, name) => {
    expect(auditFileFor("/logs", time)).toBe(join("/logs", name));
  });

  it("moves to the next day's file when the date changes, each line whole", () => {
    const sink = new JsonlAuditSink({ env: env() });
    sink.record(record("2026-03-01T23:59:59.000Z", "a"));
    sink.record(record("2026-03-02T00:00:01.000Z", "b"));
    sink.record(record("2026-03-02T00:00:02.000Z", "c"));
    expect(readdirSync(sink.dir).sort()).toEqual(["2026-03-01.jsonl", "2026-03-02.jsonl"]);
    expect(idsIn(join(sink.dir, "2026-03-01.jsonl"))).toEqual(["a"]);
    expect(idsIn(join(sink.dir, "2026-03-02.jsonl"))).toEqual(["b", "c"]);
    sink.close();
  });

  it("two sinks on one file append whole lines, in order", () => {
    const first = new JsonlAuditSink({ env: env() });
    const second = new JsonlAuditSink({ env: env() });
    const time = "2026-03-01T10:00:00.000Z";
    for (let i = 0; i < 20; i++) (i % 2 ? second : first).record(record(time, `call-${i}`));
    expect(idsIn(join(first.dir, "2026-03-01.jsonl"))).toEqual(
      Array.from({ length: 20 }, (_, i) => `call-${i}`),
    );
    first.close();
    second.close();
  });

  it("reopens (and recreates the folder) when the log was deleted or rotated away", () => {
    const sink = new JsonlAuditSink({ env: env(), recheckMs: 0 });
    const time = "2026-03-01T10:00:00.000Z";
    const file = join(sink.dir, "2026-03-01.jsonl");
    sink.record(record(time, "before-rotation"));
    renameSync(file, `${file}.1`);
    sink.record(record(time, "after-rotation"));
    expect(idsIn(`${file}.1`)).toEqual(["before-rotation"]);
    expect(idsIn(file)).toEqual(["after-rotation"]);
    rmSync(sink.dir, { recursive: true });
    sink.record(record(time, "after-deletion"));
    expect(idsIn(file)).toEqual(["after-deletion"]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    sink.close();
    sink.record(record(time, "after-close"));
    expect(idsIn(file)).toEqual(["after-deletion", "after-close"]);
    sink.close();
  });
});

describe("redaction", () => {
  it.each([
    ["MY_SERVICE_TOKEN", true],
    ["ANTHROPIC_API_KEY", true],
    ["AWS_SECRET_ACCESS_KEY", true],
    ["DB_PASSWORD", true],
    ["GITHUB_AUTH", true],
    ["PWD", false],
    ["PATH", false],
    ["KEYBOARD_LAYOUT", false],
    ["HOME", false],
  ])("%s is secret: %s", (name, expected) => {
    expect(isSecretName(name)).toBe(expected);
  });

  it("replaces env secrets anywhere (keys, nested values) and known credential shapes", () => {
    const redact = createRedactor(env());
    const out = redact({
      a: [`x${SECRET}y`],
      [SECRET]: 1,
      pwd: "/home/someone",
      short: "abc",
      anthropic: "sk-ant-api03-abcdefghijklmnopqrstuvwxyz",
      github: "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
      aws: "AKIAABCDEFGHIJKLMNOP",
      header: "Authorization: Bearer abcdefghijklmnop.qrstu",
    });
    expect(JSON.stringify(out)).not.toContain(SECRET);
    expect(out).toEqual({
      a: ["x[REDACTED:MY_SERVICE_TOKEN]y"],
      "[REDACTED:MY_SERVICE_TOKEN]": 1,
      pwd: "/home/someone",
      short: "abc",
      anthropic: "[REDACTED:anthropic-key]",
      github: "[REDACTED:github-token]",
      aws: "[REDACTED:aws-key]",
      header: "Authorization: Bearer [REDACTED]",
    });
  });
});
