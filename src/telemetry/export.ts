// Sends spooled decision events with the official OpenTelemetry JS SDK and OTLP exporters: the events as
// log records (LoggerProvider) and a `keel.tool_decision.count` counter (MeterProvider, delta
// temporality, since every flush counts its own events), over grpc, http/protobuf or http/json as the
// OTEL_* values of the destination say. Loaded only by the process that exports (the flusher), never on
// the decision path.
import type { Metadata } from "@grpc/grpc-js";
import { SeverityNumber } from "@opentelemetry/api-logs";
import { ExportResultCode, parseKeyPairsIntoRecord } from "@opentelemetry/core";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  InMemoryLogRecordExporter,
  LoggerProvider,
  type LogRecordExporter,
  type ReadableLogRecord,
  SimpleLogRecordProcessor,
} from "@opentelemetry/sdk-logs";
import {
  AggregationTemporality,
  MeterProvider,
  MetricReader,
  type PushMetricExporter,
  type ResourceMetrics,
} from "@opentelemetry/sdk-metrics";
import { keelVersion } from "../version.ts";
import type { SpooledEvent } from "./spool.ts";

export type Signal = "logs" | "metrics";
type Protocol = "grpc" | "http/protobuf" | "http/json";

export const EVENT_NAME = "keel.tool_decision";
export const COUNTER_NAME = "keel.tool_decision.count";
const SCOPE = "keel";
const DEFAULT_TIMEOUT_MS = 10_000;

export interface SignalTarget {
  protocol: Protocol;
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

/** A destination's value for a signal: the signal's own variable, else the general one. */
function pick(destination: Record<string, string>, signal: Signal, name: string): string | undefined {
  const upper = signal.toUpperCase();
  return destination[`OTEL_EXPORTER_OTLP_${upper}_${name}`] ?? destination[`OTEL_EXPORTER_OTLP_${name}`];
}

function protocolOf(value: string | undefined): Protocol {
  if (value === "grpc" || value === "http/json") return value;
  return "http/protobuf";
}

/**
 * Where a signal goes, as the OpenTelemetry specification reads the variables: a signal's own endpoint
 * as given; the general one plus `/v1/logs` or `/v1/metrics` over HTTP; localhost by default. Undefined
 * when the signal's exporter is `none` (an unset exporter means `otlp`, the specification's default).
 */
export function signalTarget(destination: Record<string, string>, signal: Signal): SignalTarget | undefined {
  const exporters = (
    destination[signal === "logs" ? "OTEL_LOGS_EXPORTER" : "OTEL_METRICS_EXPORTER"] ?? "otlp"
  )
    .split(",")
    .map((name) => name.trim());
  if (!exporters.includes("otlp")) return undefined;
  const protocol = protocolOf(pick(destination, signal, "PROTOCOL"));
  const own = destination[`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_ENDPOINT`];
  const general = destination.OTEL_EXPORTER_OTLP_ENDPOINT;
  const base = general ?? (protocol === "grpc" ? "http://localhost:4317" : "http://localhost:4318");
  const url = own ?? (protocol === "grpc" ? base : `${base.replace(/\/+$/, "")}/v1/${signal}`);
  const headers = {
    ...parseKeyPairsIntoRecord(destination.OTEL_EXPORTER_OTLP_HEADERS),
    ...parseKeyPairsIntoRecord(destination[`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_HEADERS`]),
  };
  const timeout = Number(pick(destination, signal, "TIMEOUT"));
  return { protocol, url, headers, timeoutMs: timeout > 0 ? timeout : DEFAULT_TIMEOUT_MS };
}

/** service.name keel (or OTEL_SERVICE_NAME), service.version, and OTEL_RESOURCE_ATTRIBUTES. */
function resourceOf(destination: Record<string, string>) {
  let given: Record<string, string> = {};
  try {
    given = parseKeyPairsIntoRecord(destination.OTEL_RESOURCE_ATTRIBUTES);
  } catch {
    // Malformed attributes are left out rather than failing the export.
  }
  return resourceFromAttributes({
    "service.name": destination.OTEL_SERVICE_NAME ?? given["service.name"] ?? "keel",
    "service.version": keelVersion(),
    ...given,
  });
}

async function grpcMetadata(headers: Record<string, string>): Promise<Metadata> {
  const { Metadata } = await import("@grpc/grpc-js");
  const metadata = new Metadata();
  for (const [name, value] of Object.entries(headers)) metadata.set(name, value);
  return metadata;
}

async function logExporter(target: SignalTarget): Promise<LogRecordExporter> {
  const common = { url: target.url, timeoutMillis: target.timeoutMs };
  if (target.protocol === "grpc") {
    const { OTLPLogExporter } = await import("@opentelemetry/exporter-logs-otlp-grpc");
    return new OTLPLogExporter({ ...common, metadata: await grpcMetadata(target.headers) });
  }
  const { OTLPLogExporter } =
    target.protocol === "http/json"
      ? await import("@opentelemetry/exporter-logs-otlp-http")
      : await import("@opentelemetry/exporter-logs-otlp-proto");
  return new OTLPLogExporter({ ...common, headers: target.headers });
}

async function metricExporter(target: SignalTarget): Promise<PushMetricExporter> {
  const common = { url: target.url, timeoutMillis: target.timeoutMs, temporalityPreference: 0 /* DELTA */ };
  if (target.protocol === "grpc") {
    const { OTLPMetricExporter } = await import("@opentelemetry/exporter-metrics-otlp-grpc");
    return new OTLPMetricExporter({ ...common, metadata: await grpcMetadata(target.headers) });
  }
  const { OTLPMetricExporter } =
    target.protocol === "http/json"
      ? await import("@opentelemetry/exporter-metrics-otlp-http")
      : await import("@opentelemetry/exporter-metrics-otlp-proto");
  return new OTLPMetricExporter({ ...common, headers: target.headers });
}

/** Sends through an exporter and says whether the collector took it; never longer than the timeout. */
function send<T>(
  exporter: { export(items: T, done: (result: { code: number }) => void): void },
  items: T,
  timeoutMs: number,
): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs + 1_000);
    try {
      exporter.export(items, (result) => {
        clearTimeout(timer);
        resolve(result.code === ExportResultCode.SUCCESS);
      });
    } catch {
      clearTimeout(timer);
      resolve(false);
    }
  });
}

/** A reader that hands over what was counted when asked: the flusher exports it itself. */
class CollectOnDemand extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.DELTA });
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

async function logRecordsOf(
  events: readonly SpooledEvent[],
  resource: ReturnType<typeof resourceOf>,
): Promise<ReadableLogRecord[]> {
  const memory = new InMemoryLogRecordExporter();
  const provider = new LoggerProvider({
    resource,
    processors: [new SimpleLogRecordProcessor({ exporter: memory })],
  });
  const logger = provider.getLogger(SCOPE, keelVersion());
  for (const event of events) {
    const time = new Date(event.time);
    logger.emit({
      eventName: EVENT_NAME,
      timestamp: Number.isNaN(time.getTime()) ? new Date() : time,
      severityNumber: SeverityNumber.INFO,
      severityText: "INFO",
      body: EVENT_NAME,
      attributes: event.attributes,
    });
  }
  await provider.forceFlush();
  const records = [...memory.getFinishedLogRecords()];
  await provider.shutdown();
  return records;
}

async function metricsOf(
  events: readonly SpooledEvent[],
  resource: ReturnType<typeof resourceOf>,
): Promise<ResourceMetrics> {
  const reader = new CollectOnDemand();
  const provider = new MeterProvider({ resource, readers: [reader] });
  const counter = provider
    .getMeter(SCOPE, keelVersion())
    .createCounter(COUNTER_NAME, { description: "Tool call decisions, by tool, decision, source and agent" });
  for (const event of events) counter.add(1, event.counter);
  const { resourceMetrics } = await reader.collect();
  await provider.shutdown();
  return resourceMetrics;
}

/** Exports events for the signals not yet sent; returns the signals the collector accepted. */
export async function exportEvents(
  destination: Record<string, string>,
  events: readonly SpooledEvent[],
  signal: Signal,
): Promise<boolean> {
  const target = signalTarget(destination, signal);
  if (!target || events.length === 0) return true;
  const resource = resourceOf(destination);
  if (signal === "logs") {
    const exporter = await logExporter(target);
    try {
      return await send(exporter, await logRecordsOf(events, resource), target.timeoutMs);
    } finally {
      await exporter.shutdown().catch(() => {});
    }
  }
  const exporter = await metricExporter(target);
  try {
    return await send(exporter, await metricsOf(events, resource), target.timeoutMs);
  } finally {
    await exporter.shutdown().catch(() => {});
  }
}

/** The signals this destination exports. */
export function wantedSignals(destination: Record<string, string>): Set<Signal> {
  return new Set((["logs", "metrics"] as const).filter((signal) => signalTarget(destination, signal)));
}
