// An audit record of a decision made for another agent: Keel's usual record plus which agent asked,
// through which hook event, and why Keel had no opinion when it had none.
import type { AuditRecord } from "../pipeline/services.ts";

export interface HookAuditRecord extends AuditRecord {
  /** `claude-code`, `gemini-cli`, `codex`. */
  agent: string;
  /** The agent's hook event: PreToolUse, PermissionRequest, BeforeTool. */
  hookEvent: string;
  /** Keel's allow took a prompt away from the person (guard/savedPrompt.ts). */
  savedPrompt?: boolean;
  /** The Keel tools the call was judged as, when not the agent's own name (`run_shell_command`: Bash). */
  keelTools?: string[];
  noOpinion?: string;
}

const MAX_SUMMARY_CHARS = 300;

export function summarizeInput(input: unknown): string {
  let text: string;
  try {
    text = typeof input === "string" ? input : (JSON.stringify(input) ?? String(input));
  } catch {
    text = String(input);
  }
  return text.length > MAX_SUMMARY_CHARS ? `${text.slice(0, MAX_SUMMARY_CHARS)}…` : text;
}
