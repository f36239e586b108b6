// A local OTLP collector on 127.0.0.1 for tests: HTTP (`/v1/logs`, `/v1/metrics`, protobuf or JSON) or
// gRPC (the LogsService and MetricsService Export methods, on @grpc/grpc-js). Protobuf requests are
// decoded with the OpenTelemetry project's own generated OTLP definitions (the protobufjs module that
// @opentelemetry/otlp-transformer 0.57 shipped, installed as `otlp-protobuf-definitions`), then every
// request is reduced to plain log records and metric points the tests can assert on.
import { createServer, type IncomingMessage, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import * as grpc from "@grpc/grpc-js";

const require = createRequire(import.meta.url);

interface Codec {
  decode(bytes: Uint8Array): unknown;
  encode(message: unknown): { finish(): Uint8Array };
  toObject(message: unknown, options: Record<string, unknown>): Record<string, unknown>;
  fromObject(object: unknown): unknown;
}

const otlp = (
  require("otlp-protobuf-definitions/build/src/generated/root.js") as {
    opentelemetry: { proto: { collector: Record<"logs" | "metrics", { v1: Record<string, Codec> }> } };
  }
).opentelemetry.proto.collector;

const CODECS = {
  logs: {
    request: otlp.logs.v1.ExportLogsServiceRequest as Codec,
    response: otlp.logs.v1.ExportLogsServiceResponse as Codec,
  },
  metrics: {
    request: otlp.metrics.v1.ExportMetricsServiceRequest as Codec,
    response: otlp.metrics.v1.ExportMetricsServiceResponse as Codec,
  },
};

type Signal = keyof typeof CODECS;
export type AttributeValue = string | number | boolean;

export interface ReceivedLog {
  body: unknown;
  eventName?: string;
  timeUnixNano: string;
  attributes: Record<string, AttributeValue>;
  resource: Record<string, AttributeValue>;
  scope: string;
}

export interface ReceivedPoint {
  metric: string;
  value: number;
  /** 1 delta, 2 cumulative (OTLP's AggregationTemporality). */
  temporality: number;
  attributes: Record<string, AttributeValue>;
}

export interface ReceivedRequest {
  signal: Signal;
  transport: "grpc" | "http/protobuf" | "http/json";
  headers: Record<string, string>;
}

type KeyValue = { key: string; value?: Record<string, unknown> };

function attributeValue(value: Record<string, unknown> | undefined): AttributeValue {
  if (!value) return "";
  if ("stringValue" in value) return String(value.stringValue);
  if ("boolValue" in value) return Boolean(value.boolValue);
  if ("intValue" in value) return Number(value.intValue);
  if ("doubleValue" in value) return Number(value.doubleValue);
  return JSON.stringify(value);
}

function attributesOf(list: unknown): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const item of (list as KeyValue[] | undefined) ?? []) out[item.key] = attributeValue(item.value);
  return out;
}

/** A decoded request (protobufjs toObject or OTLP/JSON: the same field names) as logs and points. */
function reduce(signal: Signal, request: Record<string, unknown>, sink: OtlpCollector): void {
  if (signal === "logs") {
    for (const resourceLogs of (request.resourceLogs as Array<Record<string, unknown>>) ?? []) {
      const resource = attributesOf(
        (resourceLogs.resource as Record<string, unknown> | undefined)?.attributes,
      );
      for (const scopeLogs of (resourceLogs.scopeLogs as Array<Record<string, unknown>>) ?? [])
        for (const record of (scopeLogs.logRecords as Array<Record<string, unknown>>) ?? [])
          sink.logs.push({
            body: attributeValue(record.body as Record<string, unknown>),
            ...(record.eventName ? { eventName: String(record.eventName) } : {}),
            timeUnixNano: String(record.timeUnixNano),
            attributes: attributesOf(record.attributes),
            resource,
            scope: String((scopeLogs.scope as Record<string, unknown> | undefined)?.name ?? ""),
          });
    }
    return;
  }
  for (const resourceMetrics of (request.resourceMetrics as Array<Record<string, unknown>>) ?? [])
    for (const scopeMetrics of (resourceMetrics.scopeMetrics as Array<Record<string, unknown>>) ?? [])
      for (const metric of (scopeMetrics.metrics as Array<Record<string, unknown>>) ?? []) {
        const sum = metric.sum as Record<string, unknown> | undefined;
        for (const point of (sum?.dataPoints as Array<Record<string, unknown>>) ?? [])
          sink.points.push({
            metric: String(metric.name),
            value: Number(point.asInt ?? point.asDouble),
            temporality: temporalityOf(sum?.aggregationTemporality),
            attributes: attributesOf(point.attributes),
          });
      }
}

function temporalityOf(value: unknown): number {
  if (value === "AGGREGATION_TEMPORALITY_DELTA") return 1;
  if (value === "AGGREGATION_TEMPORALITY_CUMULATIVE") return 2;
  return Number(value);
}

const TO_OBJECT = { longs: String, enums: String, bytes: String, defaults: false };

export interface OtlpCollector {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  logs: ReceivedLog[];
  points: ReceivedPoint[];
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => resolve(Buffer.concat(parts)));
    req.on("error", reject);
  });
}

/** An OTLP/HTTP collector (protobuf and JSON bodies). `port` 0 picks a free one. */
export async function startHttpCollector(port = 0): Promise<OtlpCollector> {
  const collector = { logs: [], points: [], requests: [] } as unknown as OtlpCollector;
  const server: Server = createServer(async (req, res) => {
    const signal = req.url === "/v1/logs" ? "logs" : req.url === "/v1/metrics" ? "metrics" : undefined;
    const body = await readBody(req);
    if (req.method !== "POST" || !signal) {
      res.writeHead(404).end();
      return;
    }
    const json = String(req.headers["content-type"]).includes("json");
    const codec = CODECS[signal];
    const decoded = json
      ? (JSON.parse(body.toString("utf8")) as Record<string, unknown>)
      : codec.request.toObject(codec.request.decode(body), TO_OBJECT);
    collector.requests.push({
      signal,
      transport: json ? "http/json" : "http/protobuf",
      headers: Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)])),
    });
    reduce(signal, decoded, collector);
    if (json) res.writeHead(200, { "content-type": "application/json" }).end("{}");
    else
      res
        .writeHead(200, { "content-type": "application/x-protobuf" })
        .end(Buffer.from(codec.response.encode(codec.response.fromObject({})).finish()));
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const actual = (server.address() as AddressInfo).port;
  collector.port = actual;
  collector.url = `http://127.0.0.1:${actual}`;
  collector.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return collector;
}

function exportMethod(signal: Signal, service: string): grpc.MethodDefinition<unknown, unknown> {
  const codec = CODECS[signal];
  return {
    path: `/opentelemetry.proto.collector.${signal}.v1.${service}/Export`,
    requestStream: false,
    responseStream: false,
    requestSerialize: (message) => Buffer.from(codec.request.encode(message).finish()),
    requestDeserialize: (bytes) => codec.request.decode(bytes),
    responseSerialize: (message) => Buffer.from(codec.response.encode(message).finish()),
    responseDeserialize: (bytes) => codec.response.decode(bytes),
  };
}

/** An OTLP/gRPC collector (insecure, as the exporters speak to an http:// endpoint). */
export async function startGrpcCollector(port = 0): Promise<OtlpCollector> {
  const collector = { logs: [], points: [], requests: [] } as unknown as OtlpCollector;
  const server = new grpc.Server();
  for (const [signal, service] of [
    ["logs", "LogsService"],
    ["metrics", "MetricsService"],
  ] as const) {
    const method = exportMethod(signal, service);
    server.addService(
      { Export: method },
      {
        Export: (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
          const codec = CODECS[signal];
          collector.requests.push({
            signal,
            transport: "grpc",
            headers: Object.fromEntries(
              Object.entries(call.metadata.getMap()).map(([name, value]) => [name, String(value)]),
            ),
          });
          reduce(signal, codec.request.toObject(call.request, TO_OBJECT), collector);
          callback(null, codec.response.fromObject({}));
        },
      },
    );
  }
  const actual = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  collector.port = actual;
  collector.url = `http://127.0.0.1:${actual}`;
  collector.close = () => new Promise((resolve) => server.tryShutdown(() => resolve()));
  return collector;
}

/** Waits until `check` holds (polling), or fails after `ms`. */
export async function eventually(check: () => boolean, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out waiting for the collector");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
