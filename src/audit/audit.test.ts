import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
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
import { auditDir, JsonlAuditSink } from "./jsonlSink.ts";
import { AuditReadStats, formatAuditRecord, lastAuditRecords, readAuditRecords } from "./readAudit.ts";
import { createRedactor, isSecretName } from "./redact.ts";
import { listSegments } from "./segments.ts";

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
    const [file, ...others] = listSegments(auditDir(env())).map((segment) => segment.path);
    expect(others).toEqual([]);
    const text = readFileSync(file!, "utf8");
    expect(text).not.toContain(SECRET);
    expect(text).toContain("[REDACTED:MY_SERVICE_TOKEN]");
    expect(statSync(file!).mode & 0o777).toBe(0o600);
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
    const file = listSegments(sink.dir)[0]!.path;
    const before = readFileSync(file, "utf8");
    appendFileSync(file, '{"torn": \n');
    await call({ audit: sink }, "two", "bb");
    await call({ audit: sink }, "one", "ccc");
    expect(readFileSync(file, "utf8").startsWith(before)).toBe(true);
    const stats = new AuditReadStats();
    const read = [...readAuditRecords({ dir: sink.dir, sessionId: "one" }, stats)];
    expect(read.map((r) => r.inputSummary)).toEqual(['{"text":"a"}', '{"text":"ccc"}']);
    expect(stats.unreadableLines).toBe(1);
    expect(lastAuditRecords({ dir: sink.dir }, 1).map((r) => r.sessionId)).toEqual(["one"]);
    expect(formatAuditRecord(read[0]!)).toMatch(/Echo\s+allow\s+by allow rule Echo from cliArg settings/);
    // A remote agent's decision, as the parent records it: where it was made.
    expect(formatAuditRecord({ ...read[0]!, worker: "build-box-1", agentId: "agent_0000abcd" })).toMatch(
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

const T0 = Date.parse("2026-03-01T23:59:58.000Z");
const namesIn = (dir: string) => listSegments(dir).map((segment) => segment.name);

describe("JsonlAuditSink's segments", () => {
  it("names a segment by the UTC time it started, and starts the next one when the day changes", () => {
    let now = T0;
    const sink = new JsonlAuditSink({ env: env(), now: () => now, recheckMs: 0 });
    sink.record(record("2026-03-01T23:59:58.000Z", "a"));
    now += 1_000;
    sink.record(record("2026-03-01T23:59:59.000Z", "b"));
    now += 2_000;
    sink.record(record("2026-03-02T00:00:01.000Z", "c"));
    expect(namesIn(sink.dir)).toEqual(["2026-03-01T23-59-58.000Z.jsonl", "2026-03-02T00-00-01.000Z.jsonl"]);
    expect(idsIn(join(sink.dir, "2026-03-01T23-59-58.000Z.jsonl"))).toEqual(["a", "b"]);
    expect(idsIn(join(sink.dir, "2026-03-02T00-00-01.000Z.jsonl"))).toEqual(["c"]);
    sink.close();
  });

  it("starts the next segment once the newest holds a tenth of the size bound", () => {
    let now = T0 - 3_600_000;
    const retention = { maxBytes: 1024 * 1024, maxAgeMs: 86_400_000 };
    const sink = new JsonlAuditSink({ env: env(), now: () => now, recheckMs: 0, retention });
    const big = { ...record("", ""), inputSummary: "x".repeat(10_000) };
    for (let i = 0; i < 30; i++) {
      now += 10;
      sink.record({ ...big, toolUseId: `call-${i}` });
    }
    sink.close();
    const segments = listSegments(sink.dir);
    // 30 lines of ~10 KB; a segment is full at 104,857 bytes (11 lines).
    expect(segments.map((segment) => idsIn(segment.path).length)).toEqual([11, 11, 8]);
    expect(segments.flatMap((segment) => idsIn(segment.path))).toEqual(
      Array.from({ length: 30 }, (_, i) => `call-${i}`),
    );
  });

  it("two sinks append whole lines, in order, to the newest segment", () => {
    const first = new JsonlAuditSink({ env: env() });
    const second = new JsonlAuditSink({ env: env() });
    for (let i = 0; i < 20; i++)
      (i % 2 ? second : first).record(record(new Date().toISOString(), `call-${i}`));
    const [segment, ...others] = listSegments(first.dir);
    expect(others).toEqual([]);
    expect(idsIn(segment!.path)).toEqual(Array.from({ length: 20 }, (_, i) => `call-${i}`));
    first.close();
    second.close();
  });

  it("moves to a newer segment another writer started, and recreates the folder when it was deleted", () => {
    let now = T0 - 60_000;
    const sink = new JsonlAuditSink({ env: env(), now: () => now, recheckMs: 0 });
    sink.record(record("", "first"));
    const other = join(sink.dir, "2026-03-01T23-59-00.000Z.jsonl");
    writeFileSync(other, "");
    now += 1_000;
    sink.record(record("", "second"));
    expect(idsIn(other)).toEqual(["second"]);
    rmSync(sink.dir, { recursive: true });
    sink.record(record("", "after-deletion"));
    const [recreated, ...more] = listSegments(sink.dir);
    expect(more).toEqual([]);
    expect(idsIn(recreated!.path)).toEqual(["after-deletion"]);
    expect(statSync(recreated!.path).mode & 0o777).toBe(0o600);
    sink.close();
    sink.record(record("", "after-close"));
    expect(idsIn(recreated!.path)).toEqual(["after-deletion", "after-close"]);
    sink.close();
  });

  it("appends to an older Keel's file of the same day, and reads both kinds of file", () => {
    const dir = join(home, ".keel", "audit");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "2026-02-27.jsonl"),
      `${JSON.stringify(record("2026-02-27T09:00:00.000Z", "legacy"))}\n`,
    );
    writeFileSync(
      join(dir, "2026-03-01.jsonl"),
      `${JSON.stringify(record("2026-03-01T09:00:00.000Z", "today"))}\n`,
    );
    const sink = new JsonlAuditSink({ env: env(), now: () => T0 });
    sink.record(record("2026-03-01T23:59:58.000Z", "new"));
    sink.close();
    expect(readdirSync(dir).sort()).toEqual(["2026-02-27.jsonl", "2026-03-01.jsonl"]);
    expect([...readAuditRecords({ dir })].map((r) => r.toolUseId)).toEqual(["legacy", "today", "new"]);
    expect([...readAuditRecords({ dir, date: "2026-02-27" })].map((r) => r.toolUseId)).toEqual(["legacy"]);
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
