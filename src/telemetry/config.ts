// Whether decisions are exported over OpenTelemetry, and where to: KEEL_ENABLE_TELEMETRY (or settings
// `telemetry.enabled`) and the standard OTEL_* variables, from the environment or the `env` of settings.
// Who may set what, highest first:
//   managed settings      everything, and nothing below can change what they set (on, off, endpoint...)
//   the environment       everything managed settings left unset
//   user settings, --settings   the same, below the environment
//   project and local settings  may only turn it on (in a folder you trust); never off, never where to
// This module reads values only: the OpenTelemetry SDK loads in the process that exports (export.ts).
import type { SourceSettings } from "../settings/merge.ts";

/** The variables that say what is exported and where (the OpenTelemetry SDK's own names). */
export const EXPORT_VARIABLES = [
  "OTEL_LOGS_EXPORTER",
  "OTEL_METRICS_EXPORTER",
  "OTEL_EXPORTER_OTLP_PROTOCOL",
  "OTEL_EXPORTER_OTLP_LOGS_PROTOCOL",
  "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL",
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT",
  "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
  "OTEL_EXPORTER_OTLP_HEADERS",
  "OTEL_EXPORTER_OTLP_LOGS_HEADERS",
  "OTEL_EXPORTER_OTLP_METRICS_HEADERS",
  "OTEL_EXPORTER_OTLP_TIMEOUT",
  "OTEL_EXPORTER_OTLP_LOGS_TIMEOUT",
  "OTEL_EXPORTER_OTLP_METRICS_TIMEOUT",
  "OTEL_RESOURCE_ATTRIBUTES",
  "OTEL_SERVICE_NAME",
] as const;

export const ENABLE_VARIABLE = "KEEL_ENABLE_TELEMETRY";
/** Command lines, paths and inputs go out only with this set (Claude Code's name). */
export const DETAILS_VARIABLE = "OTEL_LOG_TOOL_DETAILS";

/** Where a value came from, for `keel telemetry` and the warnings. */
export type TelemetryOrigin = "managed settings" | "environment" | "user settings" | "project settings";

export interface TelemetryConfig {
  enabled: boolean;
  /** OTEL_LOG_TOOL_DETAILS: inputs, paths, command lines and reasons go out too. */
  details: boolean;
  /** The export variables that are set, by precedence: where the events go. */
  destination: Record<string, string>;
  /** Which source set each value that counted. */
  origins: Record<string, TelemetryOrigin>;
  /** What a project tried to set and may not. */
  warnings: string[];
}

export interface TelemetryInput {
  /** The process environment of this decision. */
  env: NodeJS.ProcessEnv;
  /** The settings applied, any order (loadSettings' `sources`). */
  sources: readonly SourceSettings[];
  /** The project folder is trusted: its settings may turn telemetry on. */
  projectTrusted: boolean;
}

const TRUE = new Set(["1", "true", "yes", "on"]);
const FALSE = new Set(["0", "false", "no", "off"]);

function flag(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value !== "string") return undefined;
  const word = value.trim().toLowerCase();
  if (TRUE.has(word)) return true;
  if (FALSE.has(word)) return false;
  return undefined;
}

interface Layer {
  origin: TelemetryOrigin;
  /** Variables (settings `env`, or the environment). */
  vars: Record<string, string | undefined>;
  /** `telemetry.enabled` / `telemetry.logToolDetails` of settings files. */
  enabled?: boolean;
  details?: boolean;
}

function settingsLayer(origin: TelemetryOrigin, entries: readonly SourceSettings[]): Layer {
  const vars: Record<string, string> = {};
  let enabled: boolean | undefined;
  let details: boolean | undefined;
  // Highest precedence first within a layer (managed drop-ins, then the file; .keel before .claude).
  for (const entry of entries) {
    for (const [name, value] of Object.entries(entry.settings.env ?? {}))
      if (!(name in vars)) vars[name] = value;
    const telemetry = entry.settings.telemetry;
    enabled ??= telemetry?.enabled;
    details ??= telemetry?.logToolDetails;
  }
  return {
    origin,
    vars,
    ...(enabled === undefined ? {} : { enabled }),
    ...(details === undefined ? {} : { details }),
  };
}

/** A layer's say on a switch: its settings key, else its variable. */
function sayOf(layer: Layer, key: "enabled" | "details", variable: string): boolean | undefined {
  return layer[key] ?? flag(layer.vars[variable]);
}

export function resolveTelemetry(input: TelemetryInput): TelemetryConfig {
  const of = (...sources: string[]) => input.sources.filter((entry) => sources.includes(entry.source));
  // Sorted as loadSettings applies them; within one source the order given is kept.
  const layers: Layer[] = [
    settingsLayer("managed settings", of("policy")),
    { origin: "environment", vars: input.env },
    settingsLayer("user settings", [...of("cliArg"), ...of("user")]),
  ];
  const project = settingsLayer("project settings", of("local", "project"));
  const origins: Record<string, TelemetryOrigin> = {};
  const warnings: string[] = [];

  let enabled = false;
  const decided = layers.find((layer) => sayOf(layer, "enabled", ENABLE_VARIABLE) !== undefined);
  if (decided) {
    enabled = sayOf(decided, "enabled", ENABLE_VARIABLE) === true;
    origins[ENABLE_VARIABLE] = decided.origin;
  }
  const projectSays = sayOf(project, "enabled", ENABLE_VARIABLE);
  if (!decided && projectSays === true && input.projectTrusted) {
    enabled = true;
    origins[ENABLE_VARIABLE] = "project settings";
  } else if (projectSays === false || (projectSays === true && !decided && !input.projectTrusted))
    warnings.push(
      projectSays === false
        ? "a project's settings cannot turn telemetry off; ignored"
        : "a project's settings turn telemetry on only in a trusted folder (keel trust); ignored",
    );

  const detailsLayer = layers.find((layer) => sayOf(layer, "details", DETAILS_VARIABLE) !== undefined);
  const details = detailsLayer ? sayOf(detailsLayer, "details", DETAILS_VARIABLE) === true : false;
  if (detailsLayer) origins[DETAILS_VARIABLE] = detailsLayer.origin;

  const destination: Record<string, string> = {};
  for (const name of EXPORT_VARIABLES) {
    const layer = layers.find((candidate) => nonEmpty(candidate.vars[name]));
    if (!layer) continue;
    destination[name] = (layer.vars[name] as string).trim();
    origins[name] = layer.origin;
  }
  const projectTried = [...EXPORT_VARIABLES, DETAILS_VARIABLE].filter((name) => nonEmpty(project.vars[name]));
  if (project.details !== undefined) projectTried.push("telemetry.logToolDetails");
  // Claude Code reads a project's OTEL_* values for its own telemetry: they concern Keel only when it exports.
  if (projectTried.length > 0 && enabled)
    warnings.push(
      `a project's settings cannot say where telemetry goes or what it holds; ignored: ${projectTried.join(", ")}`,
    );
  return { enabled, details, destination, origins, warnings };
}

function nonEmpty(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== "";
}
