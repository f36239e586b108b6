// Which source may turn telemetry on or off and say where it goes: managed settings over the environment
// over user settings; a project's settings may only turn it on, and only in a trusted folder.
import { describe, expect, it } from "vitest";
import type { RuleSource } from "../permissions/types.ts";
import type { SourceSettings } from "../settings/merge.ts";
import type { SettingsFile } from "../settings/schema.ts";
import { resolveTelemetry } from "./config.ts";

const source = (kind: RuleSource, settings: SettingsFile): SourceSettings => ({ source: kind, settings });
const managed = (settings: SettingsFile) => source("policy", settings);
const user = (settings: SettingsFile) => source("user", settings);
const project = (settings: SettingsFile) => source("project", settings);
const local = (settings: SettingsFile) => source("local", settings);

const MANAGED_URL = "https://otel.corp.example:4318";
const OTHER_URL = "http://evil.example:4318";

interface Case {
  name: string;
  env?: Record<string, string>;
  sources?: SourceSettings[];
  trusted?: boolean;
  enabled: boolean;
  endpoint?: string;
  details?: boolean;
  warning?: RegExp;
}

const CASES: Case[] = [
  { name: "off by default", enabled: false },
  { name: "KEEL_ENABLE_TELEMETRY=1 turns it on", env: { KEEL_ENABLE_TELEMETRY: "1" }, enabled: true },
  {
    name: "user settings telemetry.enabled",
    sources: [user({ telemetry: { enabled: true } })],
    enabled: true,
  },
  {
    name: "user settings env, as Claude Code's settings do",
    sources: [user({ env: { KEEL_ENABLE_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: MANAGED_URL } })],
    enabled: true,
    endpoint: MANAGED_URL,
  },
  {
    name: "the environment over user settings",
    env: { KEEL_ENABLE_TELEMETRY: "0" },
    sources: [user({ telemetry: { enabled: true } })],
    enabled: false,
  },
  {
    name: "managed settings turn it on and name the endpoint",
    sources: [managed({ telemetry: { enabled: true }, env: { OTEL_EXPORTER_OTLP_ENDPOINT: MANAGED_URL } })],
    enabled: true,
    endpoint: MANAGED_URL,
  },
  {
    name: "managed settings over the environment, both ways",
    env: { KEEL_ENABLE_TELEMETRY: "0", OTEL_EXPORTER_OTLP_ENDPOINT: OTHER_URL },
    sources: [managed({ env: { KEEL_ENABLE_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: MANAGED_URL } })],
    enabled: true,
    endpoint: MANAGED_URL,
  },
  {
    name: "managed off: nothing turns it on",
    env: { KEEL_ENABLE_TELEMETRY: "1" },
    sources: [managed({ telemetry: { enabled: false } }), project({ telemetry: { enabled: true } })],
    trusted: true,
    enabled: false,
  },
  {
    name: "a project cannot turn managed telemetry off",
    sources: [managed({ telemetry: { enabled: true } }), project({ telemetry: { enabled: false } })],
    trusted: true,
    enabled: true,
    warning: /cannot turn telemetry off/,
  },
  {
    name: "a project cannot turn the environment's telemetry off",
    env: { KEEL_ENABLE_TELEMETRY: "1" },
    sources: [local({ env: { KEEL_ENABLE_TELEMETRY: "0" } })],
    trusted: true,
    enabled: true,
    warning: /cannot turn telemetry off/,
  },
  {
    name: "a project cannot point it elsewhere",
    sources: [
      managed({ telemetry: { enabled: true }, env: { OTEL_EXPORTER_OTLP_ENDPOINT: MANAGED_URL } }),
      project({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: OTHER_URL, OTEL_EXPORTER_OTLP_HEADERS: "x=1" } }),
    ],
    trusted: true,
    enabled: true,
    endpoint: MANAGED_URL,
    warning: /cannot say where telemetry goes.*OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS/,
  },
  {
    name: "a project cannot set an endpoint the others left unset",
    env: { KEEL_ENABLE_TELEMETRY: "1" },
    sources: [local({ env: { OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: OTHER_URL } })],
    trusted: true,
    enabled: true,
    endpoint: undefined,
    warning: /OTEL_EXPORTER_OTLP_LOGS_ENDPOINT/,
  },
  {
    name: "a trusted project may turn it on",
    sources: [project({ telemetry: { enabled: true } })],
    trusted: true,
    enabled: true,
  },
  {
    name: "an untrusted project may not",
    sources: [project({ telemetry: { enabled: true } })],
    trusted: false,
    enabled: false,
    warning: /only in a trusted folder/,
  },
  {
    name: "a project does not override the user's off",
    sources: [user({ telemetry: { enabled: false } }), project({ telemetry: { enabled: true } })],
    trusted: true,
    enabled: false,
  },
  {
    name: "details from the environment",
    env: { KEEL_ENABLE_TELEMETRY: "1", OTEL_LOG_TOOL_DETAILS: "1" },
    enabled: true,
    details: true,
  },
  {
    name: "a project cannot turn details on",
    env: { KEEL_ENABLE_TELEMETRY: "1" },
    sources: [project({ telemetry: { logToolDetails: true }, env: { OTEL_LOG_TOOL_DETAILS: "1" } })],
    trusted: true,
    enabled: true,
    details: false,
    warning: /OTEL_LOG_TOOL_DETAILS, telemetry.logToolDetails/,
  },
  {
    name: "managed settings keep details off",
    env: { KEEL_ENABLE_TELEMETRY: "1", OTEL_LOG_TOOL_DETAILS: "1" },
    sources: [managed({ telemetry: { logToolDetails: false } })],
    enabled: true,
    details: false,
  },
];

describe("resolveTelemetry: who may set what", () => {
  it.each(CASES)("$name", (testCase) => {
    const config = resolveTelemetry({
      env: testCase.env ?? {},
      sources: testCase.sources ?? [],
      projectTrusted: testCase.trusted ?? false,
    });
    expect(config.enabled).toBe(testCase.enabled);
    if ("endpoint" in testCase)
      expect(config.destination.OTEL_EXPORTER_OTLP_ENDPOINT).toBe(testCase.endpoint);
    expect(config.details).toBe(testCase.details ?? false);
    if (testCase.warning) expect(config.warnings.join("\n")).toMatch(testCase.warning);
    else expect(config.warnings).toEqual([]);
  });

  it("records which source set each value", () => {
    const config = resolveTelemetry({
      env: { OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" },
      sources: [managed({ telemetry: { enabled: true }, env: { OTEL_EXPORTER_OTLP_ENDPOINT: MANAGED_URL } })],
      projectTrusted: false,
    });
    expect(config.origins).toEqual({
      KEEL_ENABLE_TELEMETRY: "managed settings",
      OTEL_EXPORTER_OTLP_ENDPOINT: "managed settings",
      OTEL_EXPORTER_OTLP_PROTOCOL: "environment",
    });
    expect(config.destination).toEqual({
      OTEL_EXPORTER_OTLP_ENDPOINT: MANAGED_URL,
      OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
    });
  });
});

describe("a project's OTEL_* values while Keel's telemetry is off", () => {
  it("are Claude Code's business: no warning", () => {
    const config = resolveTelemetry({
      env: {},
      sources: [
        project({ env: { CLAUDE_CODE_ENABLE_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: OTHER_URL } }),
      ],
      projectTrusted: true,
    });
    expect(config).toMatchObject({ enabled: false, warnings: [] });
  });
});
