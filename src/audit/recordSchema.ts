// What one line of the audit log must hold to be shown. A line that parses as JSON but not as a record
// (`"tool": 12`, written by hand, another program or a damaged disk) is skipped and counted, never shown:
// the formatters and the summary rely on these types.
import * as z from "zod";
import type { AuditRecord } from "../pipeline/services.ts";

const HookOutcomeSchema = z.looseObject({
  hookName: z.string(),
  event: z.string(),
  outcome: z.string(),
  exitCode: z.number().optional(),
  durationMs: z.number(),
  message: z.string().optional(),
});

/** Keel's own records and those of `keel hook` (which add the agent and its hook event). */
export const AuditRecordSchema = z.looseObject({
  time: z.string(),
  sessionId: z.string(),
  toolUseId: z.string(),
  tool: z.string(),
  inputSummary: z.string(),
  behavior: z.enum(["allow", "deny", "ask", "none"]),
  decidedBy: z.string(),
  decisionReason: z.unknown().optional(),
  hooks: z.array(HookOutcomeSchema),
  classifier: z
    .looseObject({ behavior: z.enum(["allow", "ask", "deny"]), reason: z.string(), durationMs: z.number() })
    .optional(),
  durationMs: z.looseObject({ total: z.number(), permission: z.number(), call: z.number() }),
  resultChars: z.number(),
  isError: z.boolean(),
  errorCode: z.string().optional(),
  agentId: z.string().optional(),
  agent: z.string().optional(),
  hookEvent: z.string().optional(),
  noOpinion: z.string().optional(),
  mode: z.string().optional(),
  savedPrompt: z.boolean().optional(),
  keelTools: z.array(z.string()).optional(),
  classifierVerdictFor: z.string().optional(),
  worker: z.string().optional(),
});

/** A record as read back: Keel's own fields, and a hook record's agent and event when it has them. */
export type ReadAuditRecord = AuditRecord & {
  agent?: string;
  hookEvent?: string;
  noOpinion?: string;
  savedPrompt?: boolean;
  keelTools?: string[];
};

export type CheckedLine = { record: ReadAuditRecord } | { problem: string };

/** One line of the log: the record, or why it is not one (not JSON, or JSON of another shape). */
export function checkAuditLine(line: string): CheckedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { problem: "not JSON" };
  }
  const parsed = AuditRecordSchema.safeParse(value);
  if (parsed.success) return { record: parsed.data as ReadAuditRecord };
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.map(String).join(".")}: ` : "";
  return { problem: `${where}${issue?.message ?? "not an audit record"}` };
}
