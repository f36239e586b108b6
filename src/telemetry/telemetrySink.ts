// The telemetry half of the decision log: each audit record becomes a `keel.tool_decision` event in the
// spool (a file written before the decision is handed on), and a flusher process is started when none
// runs. Exporting happens there, never here: an unreachable collector cannot delay or fail a decision.
import { createRedactor } from "../audit/redact.ts";
import type { AuditRecord, AuditSink } from "../pipeline/services.ts";
import { errorMessage } from "../tool/errors.ts";
import { keelVersion } from "../version.ts";
import type { TelemetryConfig } from "./config.ts";
import { type DecisionRecord, type DecisionSurface, decisionEvent } from "./decisionEvent.ts";
import { afterSpooled, FLUSHER_IDLE_MS } from "./flusher.ts";
import { spoolEvent, spoolRoot } from "./spool.ts";

export interface TelemetrySinkOptions {
  config: TelemetryConfig;
  surface: DecisionSurface;
  /** The process environment: where the spool is (KEEL_HOME), and the switches below. */
  env: NodeJS.ProcessEnv;
  /** Whose secrets are redacted from details (default: `env`). */
  redactionEnv?: NodeJS.ProcessEnv;
  /** Told once when the spool cannot be written; the decision itself goes on. */
  onError: (message: string) => void;
}

/** `KEEL_TELEMETRY_FLUSHER=off`: spool only, nobody sends (tests that call flushTelemetrySpool themselves). */
function flusherWanted(env: NodeJS.ProcessEnv): boolean {
  return !["off", "0", "false"].includes((env.KEEL_TELEMETRY_FLUSHER ?? "").trim().toLowerCase());
}

export function telemetrySink(options: TelemetrySinkOptions): AuditSink {
  const { config, env } = options;
  const root = spoolRoot(env);
  const redact = createRedactor(options.redactionEnv ?? env);
  const idle = Number(env.KEEL_TELEMETRY_FLUSHER_IDLE_MS);
  const idleMs = idle > 0 ? idle : FLUSHER_IDLE_MS;
  const startFlusher = flusherWanted(env);
  let failed = false;
  return {
    record(entry: AuditRecord): void {
      try {
        const event = decisionEvent(entry as DecisionRecord, {
          surface: options.surface,
          appVersion: keelVersion(),
          details: config.details,
          redact,
        });
        if (!event) return;
        spoolEvent(root, config.destination, event);
        if (startFlusher) afterSpooled(root, idleMs);
      } catch (error) {
        if (failed) return;
        failed = true;
        options.onError(`could not spool a telemetry event in ${root}: ${errorMessage(error)}`);
      }
    },
  };
}
