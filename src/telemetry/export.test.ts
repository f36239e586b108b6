// Decisions exported over each OTLP protocol to a collector on 127.0.0.1 that decodes the requests with
// the OpenTelemetry project's own OTLP definitions: the event's attributes, the counter, headers and
// resource, details left out unless OTEL_LOG_TOOL_DETAILS=1, and a spool that survives an unreachable
// collector and is sent once it is back.
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AuditRecord } from "../pipeline/services.ts";
import { resolveTelemetry } from "./config.ts";
import { signalTarget } from "./export.ts";
import { flushTelemetrySpool } from "./flusher.ts";
import { spoolCount, spoolRoot } from "./spool.ts";
import { telemetrySink } from "./telemetrySink.ts";
import { type OtlpCollector, startGrpcCollector, startHttpCollector } from "./testing/otlpCollector.ts";

const collectors: OtlpCollector[] = [];
const homes: string[] = [];
afterEach(async () => {
  await Promise.all(collectors.splice(0).map((collector) => collector.close()));
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

async function collector(protocol: string, port = 0): Promise<OtlpCollector> {
  const started = protocol === "grpc" ? await startGrpcCollector(port) : await startHttpCollector(port);
  collectors.push(started);
  return started;
}

const SECRET = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123";

function denyRecord(overrides: Partial<AuditRecord> = {}): AuditRecord {
  return {
    time: "2026-11-28T10:00:00.000Z",
    sessionId: "session-1",
    toolUseId: "toolu_1",
    tool: "Bash",
    inputSummary: JSON.stringify({
      command: `curl -H 'x-api-key: ${SECRET}' https://example.com /home/alice/notes`,
    }),
    behavior: "deny",
    decidedBy: "deny rule Bash(curl:*) from policy settings",
    decisionReason: {
      type: "rule",
      rule: { source: "policy", behavior: "deny", value: { toolName: "Bash", ruleContent: "curl:*" } },
    },
    hooks: [],
    durationMs: { total: 2, permission: 1.5, call: 0 },
    resultChars: 0,
    isError: true,
    mode: "acceptEdits",
    ...overrides,
  };
}

const allowRecord = (): AuditRecord =>
  denyRecord({
    toolUseId: "toolu_2",
    tool: "Read",
    inputSummary: JSON.stringify({ file_path: "/home/alice/project/README.md" }),
    behavior: "allow",
    decidedBy: "user via terminal (always)",
    decisionReason: { type: "user", prompter: "terminal", choice: "always" },
  });

/** A spool of its own, with the events recorded through the decision log's telemetry half. */
function recordInto(env: Record<string, string>, records: AuditRecord[]): string {
  const home = mkdtempSync(join(tmpdir(), "keel-telemetry-"));
  homes.push(home);
  const full = { KEEL_HOME: home, KEEL_TELEMETRY_FLUSHER: "off", KEEL_ENABLE_TELEMETRY: "1", ...env };
  const config = resolveTelemetry({ env: full, sources: [], projectTrusted: false });
  const errors: string[] = [];
  const sink = telemetrySink({
    config,
    surface: "tool",
    env: full,
    onError: (message) => errors.push(message),
  });
  for (const record of records) sink.record(record);
  expect(errors).toEqual([]);
  return spoolRoot(full);
}

describe("decisions over OTLP", () => {
  it.each(["grpc", "http/protobuf", "http/json"])(
    "over %s: the event, the counter, headers and resource",
    async (protocol) => {
      const server = await collector(protocol);
      const root = recordInto(
        {
          OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
          OTEL_EXPORTER_OTLP_ENDPOINT: server.url,
          OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20team-token,x-team=keel",
          OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=ci,team=platform",
        },
        [denyRecord(), allowRecord(), denyRecord({ toolUseId: "toolu_3" })],
      );
      expect(await flushTelemetrySpool(root)).toEqual({ sent: 3, waiting: 0 });
      expect(spoolCount(root).events).toBe(0);

      expect(server.requests.map((request) => `${request.signal} ${request.transport}`).sort()).toEqual([
        `logs ${protocol}`,
        `metrics ${protocol}`,
      ]);
      for (const request of server.requests) {
        expect(request.headers.authorization).toBe("Bearer team-token");
        expect(request.headers["x-team"]).toBe("keel");
      }
      expect(server.logs).toHaveLength(3);
      const byId = (id: string) => server.logs.find((log) => log.attributes.tool_use_id === id);
      const [deny, allow] = [byId("toolu_1"), byId("toolu_2")];
      expect(deny?.body).toBe("keel.tool_decision");
      expect(deny?.scope).toBe("keel");
      expect(deny?.timeUnixNano).toBe(String(Date.parse("2026-11-28T10:00:00.000Z") * 1_000_000));
      expect(deny?.resource).toMatchObject({
        "service.name": "keel",
        "deployment.environment": "ci",
        team: "platform",
      });
      // Claude Code's claude_code.tool_decision attributes, then Keel's.
      expect(deny?.attributes).toEqual({
        "event.name": "tool_decision",
        "event.timestamp": "2026-11-28T10:00:00.000Z",
        "session.id": "session-1",
        "app.version": expect.any(String),
        tool_name: "Bash",
        tool_use_id: "toolu_1",
        decision: "reject",
        source: "config",
        reason_type: "rule",
        decided_by: "deny rule Bash(curl:*) from policy settings",
        behavior: "deny",
        decision_reason_type: "rule",
        rule: "Bash(curl:*)",
        rule_behavior: "deny",
        rule_source: "policy",
        agent: "keel",
        surface: "tool",
        permission_mode: "acceptEdits",
        duration_ms: 1.5,
      });
      expect(allow?.attributes).toMatchObject({
        tool_name: "Read",
        decision: "accept",
        source: "user_permanent",
      });
      if (protocol === "http/json") expect(deny?.eventName).toBe("keel.tool_decision");

      // One delta point per tool, decision, source and agent.
      const points = server.points.map((point) => ({ ...point, attributes: { ...point.attributes } }));
      expect(points).toEqual(
        expect.arrayContaining([
          {
            metric: "keel.tool_decision.count",
            value: 2,
            temporality: 1,
            attributes: { tool_name: "Bash", decision: "reject", source: "config", agent: "keel" },
          },
          {
            metric: "keel.tool_decision.count",
            value: 1,
            temporality: 1,
            attributes: { tool_name: "Read", decision: "accept", source: "user_permanent", agent: "keel" },
          },
        ]),
      );
      expect(points).toHaveLength(2);
    },
  );

  it("leaves the input, paths and reasons out unless OTEL_LOG_TOOL_DETAILS=1, and redacts secrets even then", async () => {
    const server = await collector("http/protobuf");
    const hookDenied = denyRecord({
      decidedBy: "hook /home/alice/bin/guard.sh --strict",
      decisionReason: {
        type: "hook",
        hookName: "/home/alice/bin/guard.sh --strict",
        reason: "curl to /home/alice",
      },
    });
    const plain = recordInto({ OTEL_EXPORTER_OTLP_ENDPOINT: server.url }, [denyRecord(), hookDenied]);
    await flushTelemetrySpool(plain);
    const detailed = recordInto(
      { OTEL_EXPORTER_OTLP_ENDPOINT: server.url, OTEL_LOG_TOOL_DETAILS: "1", ANTHROPIC_API_KEY: SECRET },
      [hookDenied],
    );
    await flushTelemetrySpool(detailed);
    expect(server.logs).toHaveLength(3);
    const [withoutDetails, hookWithout, withDetails] = server.logs;
    for (const log of [withoutDetails, hookWithout]) {
      const text = JSON.stringify(log?.attributes);
      expect(text).not.toContain("curl -H");
      expect(text).not.toContain("/home/alice");
      expect(log?.attributes).not.toHaveProperty("tool_input");
      expect(log?.attributes).not.toHaveProperty("reason");
    }
    expect(hookWithout?.attributes.decided_by).toBe("hook");
    expect(withDetails?.attributes.tool_input).toContain("curl -H");
    expect(withDetails?.attributes.tool_input).toContain("/home/alice/notes");
    expect(withDetails?.attributes.reason).toBe("curl to /home/alice");
    expect(withDetails?.attributes.decided_by).toBe("hook /home/alice/bin/guard.sh --strict");
    expect(JSON.stringify(withDetails?.attributes)).not.toContain(SECRET);
  });

  it("keeps events in the spool while the collector is unreachable, and sends them once it is back", async () => {
    const probe = await startHttpCollector();
    const port = probe.port;
    await probe.close();
    const root = recordInto(
      { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_EXPORTER_OTLP_TIMEOUT: "2000" },
      [denyRecord(), allowRecord()],
    );
    expect(await flushTelemetrySpool(root)).toEqual({ sent: 0, waiting: 2 });
    expect(spoolCount(root)).toEqual({ events: 2, destinations: 1 });

    const server = await collector("http/protobuf", port);
    expect(await flushTelemetrySpool(root)).toEqual({ sent: 2, waiting: 0 });
    expect(server.logs.map((log) => log.attributes.tool_use_id)).toEqual(["toolu_1", "toolu_2"]);
    expect(spoolCount(root)).toEqual({ events: 0, destinations: 0 });
  });

  it("sends only the signals whose exporter is on, and keeps the spool private", async () => {
    const server = await collector("http/json");
    const root = recordInto(
      {
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_EXPORTER_OTLP_ENDPOINT: server.url,
        OTEL_METRICS_EXPORTER: "none",
      },
      [denyRecord()],
    );
    const [folder] = readdirSync(root);
    const dir = join(root, folder as string);
    expect(statSync(root).mode & 0o777).toBe(0o700);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const name of readdirSync(dir)) expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
    await flushTelemetrySpool(root);
    expect(server.requests.map((request) => request.signal)).toEqual(["logs"]);
    expect(server.points).toEqual([]);
  });
});

describe("signalTarget reads the OTEL_* variables as the specification does", () => {
  it.each([
    { vars: {}, signal: "logs", url: "http://localhost:4318/v1/logs", protocol: "http/protobuf" },
    {
      vars: { OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" },
      signal: "metrics",
      url: "http://localhost:4317",
      protocol: "grpc",
    },
    {
      vars: { OTEL_EXPORTER_OTLP_ENDPOINT: "https://c.example/otlp/" },
      signal: "metrics",
      url: "https://c.example/otlp/v1/metrics",
      protocol: "http/protobuf",
    },
    {
      vars: {
        OTEL_EXPORTER_OTLP_ENDPOINT: "https://c.example",
        OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: "https://l.example/in",
      },
      signal: "logs",
      url: "https://l.example/in",
      protocol: "http/protobuf",
    },
    {
      vars: { OTEL_EXPORTER_OTLP_PROTOCOL: "grpc", OTEL_EXPORTER_OTLP_LOGS_PROTOCOL: "http/json" },
      signal: "logs",
      url: "http://localhost:4318/v1/logs",
      protocol: "http/json",
    },
    { vars: { OTEL_LOGS_EXPORTER: "none" }, signal: "logs", url: undefined, protocol: undefined },
    {
      vars: { OTEL_METRICS_EXPORTER: "console,otlp" },
      signal: "metrics",
      url: "http://localhost:4318/v1/metrics",
      protocol: "http/protobuf",
    },
  ] as const)("$vars, $signal -> $url", ({ vars, signal, url, protocol }) => {
    const target = signalTarget(vars as Record<string, string>, signal);
    expect(target?.url).toBe(url);
    expect(target?.protocol).toBe(protocol);
  });

  it("per-signal headers join the general ones and win", () => {
    const target = signalTarget(
      { OTEL_EXPORTER_OTLP_HEADERS: "a=1,b=2", OTEL_EXPORTER_OTLP_METRICS_HEADERS: "b=3" },
      "metrics",
    );
    expect(target?.headers).toEqual({ a: "1", b: "3" });
  });
});
