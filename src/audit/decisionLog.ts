// Where every surface records its decisions (the agent, `keel mcp`, `keel tool`, `keel hook <agent>`):
// the audit log, and, when telemetry is on, the OpenTelemetry export. One place, so a decision is
// exported exactly when it is audited, with the same record.
import type { PipelineServices } from "../pipeline/services.ts";
import type { SourceSettings } from "../settings/merge.ts";
import { resolveTelemetry } from "../telemetry/config.ts";
import type { DecisionSurface } from "../telemetry/decisionEvent.ts";
import { JsonlAuditSink } from "./jsonlSink.ts";
import type { AuditRetention } from "./retention.ts";

export type DecisionLog = NonNullable<PipelineServices["audit"]> & { close(): void };

export interface DecisionLogOptions {
  /** The process environment (not merged with settings `env`: settings count by their own source). */
  env: NodeJS.ProcessEnv;
  /**
   * The session's settings: how much of the audit log is kept, and whether telemetry is on (without
   * them, only the environment can turn it on and the log keeps its default bounds).
   */
  settings?: { sources: readonly SourceSettings[]; trusted: boolean; auditRetention?: AuditRetention };
  surface: DecisionSurface;
  /** Default: ~/.keel/audit. */
  auditDir?: string;
  /** Whose secrets are redacted (default: `env`). */
  redactionEnv?: NodeJS.ProcessEnv;
  onError: (message: string) => void;
}

export async function openDecisionLog(options: DecisionLogOptions): Promise<DecisionLog> {
  const audit = new JsonlAuditSink({
    env: options.redactionEnv ?? options.env,
    ...(options.auditDir ? { dir: options.auditDir } : {}),
    // How much of the log is kept: the user's and managed settings say (audit/retention.ts).
    ...(options.settings?.auditRetention ? { retention: options.settings.auditRetention } : {}),
    onError: options.onError,
  });
  const config = resolveTelemetry({
    env: options.env,
    sources: options.settings?.sources ?? [],
    projectTrusted: options.settings?.trusted ?? false,
  });
  for (const warning of config.warnings) options.onError(`telemetry: ${warning}`);
  if (!config.enabled) return { record: (entry) => audit.record(entry), close: () => audit.close() };
  // The spool and the event's shape load only when telemetry is on.
  const { telemetrySink } = await import("../telemetry/telemetrySink.ts");
  const telemetry = telemetrySink({
    config,
    surface: options.surface,
    env: options.env,
    ...(options.redactionEnv ? { redactionEnv: options.redactionEnv } : {}),
    onError: options.onError,
  });
  return {
    record(entry) {
      audit.record(entry);
      telemetry.record(entry);
    },
    close: () => audit.close(),
  };
}
