// A remote agent's decisions in the parent's audit log: the worker sends each record it wrote (redacted
// with its own environment); the parent keeps what an audit record holds, under its own session, with
// the agent's id and the worker's name, so `keel audit` shows who decided and where.
import * as z from "zod";
import type { AuditRecord, AuditSink } from "../../pipeline/services.ts";

export type AuditSinkLike = AuditSink;

const WorkerRecordSchema = z.object({
  time: z.string().catch(() => new Date().toISOString()),
  toolUseId: z.string().catch(""),
  tool: z.string().catch("(unknown)"),
  inputSummary: z.string().catch(""),
  behavior: z.enum(["allow", "deny", "ask", "none"]).catch("none"),
  decidedBy: z.string().catch("(not said)"),
  decisionReason: z.unknown().optional(),
  hooks: z.array(z.any()).catch([]),
  classifier: z.any().optional(),
  durationMs: z
    .object({ total: z.number(), permission: z.number(), call: z.number() })
    .catch({ total: 0, permission: 0, call: 0 }),
  resultChars: z.number().catch(0),
  isError: z.boolean().catch(false),
  errorCode: z.string().optional().catch(undefined),
});

export function auditRecordFromWorker(
  raw: Record<string, unknown>,
  where: { sessionId: string; agentId: string; worker: string },
): AuditRecord {
  const record = WorkerRecordSchema.parse(raw);
  return {
    ...record,
    errorCode: record.errorCode as AuditRecord["errorCode"],
    sessionId: where.sessionId,
    agentId: where.agentId,
    worker: where.worker,
  } as AuditRecord;
}
