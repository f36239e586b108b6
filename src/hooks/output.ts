// What one hook run means: exit 0 (stdout JSON read, or plain text), exit 2 (block, stderr is the
// reason), anything else (a non-blocking error shown to the user with its stderr).
import * as z from "zod";
import type { HookOutcome } from "../pipeline/services.ts";
import { parseContext } from "../tool/parseContext.ts";

const PermissionRequestDecisionSchema = z.looseObject({
  behavior: z.enum(["allow", "deny"]),
  updatedInput: z.record(z.string(), z.unknown()).optional(),
  message: z.string().optional(),
  interrupt: z.boolean().optional(),
});

export const HookJsonOutputSchema = z.looseObject({
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  systemMessage: z.string().optional(),
  /** Older top-level form: approve / block (PreToolUse), block (PostToolUse, Stop, UserPromptSubmit). */
  decision: z.enum(["approve", "block", "allow", "deny", "ask"]).optional(),
  reason: z.string().optional(),
  hookSpecificOutput: z
    .looseObject({
      hookEventName: z.string().optional(),
      permissionDecision: z.enum(["allow", "deny", "ask"]).optional(),
      permissionDecisionReason: z.string().optional(),
      updatedInput: z.record(z.string(), z.unknown()).optional(),
      additionalContext: z.string().optional(),
      decision: PermissionRequestDecisionSchema.optional(),
    })
    .optional(),
});
export type HookJsonOutput = z.infer<typeof HookJsonOutputSchema>;

/** What a command (or HTTP request) produced, before interpretation. */
export interface RawHookRun {
  exitCode: number | null;
  /** Set when the process died of a signal. */
  signal?: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  timeoutSeconds: number;
  /** Could not start at all (spawn failure, connection refused). */
  startError?: string;
  durationMs: number;
}

export interface HookRunResult {
  hookName: string;
  event: string;
  outcome: HookOutcome["outcome"];
  exitCode?: number;
  durationMs: number;
  /** Parsed stdout JSON (exit 0 only). */
  json?: HookJsonOutput;
  /** Non-JSON stdout of a successful run (context for UserPromptSubmit and SessionStart). */
  plainText?: string;
  /** Exit 2: stderr, the reason given to the model. */
  blockingError?: string;
  /** A failure to show the user: what went wrong and the hook's stderr. */
  errorMessage?: string;
}

const MAX_SHOWN = 2_000;

function clip(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > MAX_SHOWN ? `${trimmed.slice(0, MAX_SHOWN)}…` : trimmed;
}

function withStderr(message: string, stderr: string): string {
  const shown = clip(stderr);
  return shown === "" ? message : `${message}\n${shown}`;
}

export function interpretHookRun(hookName: string, event: string, raw: RawHookRun): HookRunResult {
  const base = { hookName, event, durationMs: raw.durationMs };
  const exitCode = raw.exitCode ?? undefined;
  const what = `${event} hook "${hookName}"`;
  if (raw.aborted) return { ...base, outcome: "cancelled", errorMessage: `${what} was cancelled` };
  if (raw.timedOut)
    return {
      ...base,
      outcome: "non_blocking_error",
      errorMessage: withStderr(
        `${what} timed out after ${raw.timeoutSeconds}s and was killed; the call went on`,
        raw.stderr,
      ),
    };
  if (raw.startError !== undefined)
    return {
      ...base,
      outcome: "non_blocking_error",
      errorMessage: withStderr(`${what} could not run: ${raw.startError}`, raw.stderr),
    };
  if (raw.exitCode === 2) {
    const reason = clip(raw.stderr) || `blocked by ${what} (exit 2, no message on stderr)`;
    return { ...base, outcome: "blocking", exitCode: 2, blockingError: reason };
  }
  if (raw.exitCode !== 0) {
    const how =
      raw.exitCode === null
        ? `was killed by ${raw.signal ?? "a signal"}`
        : `failed with exit code ${raw.exitCode}`;
    return {
      ...base,
      outcome: "non_blocking_error",
      ...(exitCode === undefined ? {} : { exitCode }),
      errorMessage: withStderr(`${what} ${how}`, raw.stderr),
    };
  }
  return { ...base, exitCode: 0, ...interpretStdout(what, raw) };
}

function interpretStdout(
  what: string,
  raw: RawHookRun,
): Pick<HookRunResult, "outcome" | "json" | "plainText" | "errorMessage"> {
  const stdout = raw.stdout.trim();
  if (stdout === "") return { outcome: "success" };
  if (!stdout.startsWith("{") && !stdout.startsWith("[")) return { outcome: "success", plainText: stdout };
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch (error) {
    return {
      outcome: "non_blocking_error",
      errorMessage: withStderr(
        `${what} printed invalid JSON (${(error as Error).message}); its output was ignored`,
        raw.stderr,
      ),
    };
  }
  const parsed = HookJsonOutputSchema.safeParse(value, parseContext());
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? `${issue.path.join(".") || "output"}: ${issue.message}` : "unexpected shape";
    return {
      outcome: "non_blocking_error",
      errorMessage: withStderr(
        `${what} printed JSON Keel does not understand (${where}); its output was ignored`,
        raw.stderr,
      ),
    };
  }
  return { outcome: "success", json: parsed.data };
}

export function toOutcome(result: HookRunResult): HookOutcome {
  return {
    hookName: result.hookName,
    event: result.event,
    outcome: result.outcome,
    ...(result.exitCode === undefined ? {} : { exitCode: result.exitCode }),
    durationMs: result.durationMs,
    ...(result.blockingError
      ? { message: result.blockingError }
      : result.errorMessage
        ? { message: result.errorMessage }
        : {}),
  };
}
