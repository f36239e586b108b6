// Reading the fields every agent's hook event carries, with one-line problems for what is missing,
// and the texts Keel's verdicts are given to agents in.
import { isAbsolute } from "node:path";
import { isPermissionMode } from "../permissions/modes.ts";
import type { PermissionMode } from "../permissions/types.ts";
import type { Verdict } from "./types.ts";

/** An event Keel cannot read as a tool call: refused (the agent blocks the call with this reason). */
export class EventProblem extends Error {}

/** An event of a kind Keel does not answer (not a tool call): no opinion. */
export class UnansweredEvent extends EventProblem {}

export function requireString(event: Record<string, unknown>, field: string): string {
  const value = event[field];
  if (typeof value !== "string" || value === "") throw new EventProblem(`the event has no ${field}`);
  return value;
}

export function optionalString(event: Record<string, unknown>, field: string): string | undefined {
  const value = event[field];
  return typeof value === "string" && value !== "" ? value : undefined;
}

export function requireObject(event: Record<string, unknown>, field: string): Record<string, unknown> {
  const value = event[field];
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new EventProblem(`the event's ${field} is not a JSON object`);
  return value as Record<string, unknown>;
}

export function requireAbsolutePath(event: Record<string, unknown>, field: string): string {
  const value = requireString(event, field);
  if (!isAbsolute(value)) throw new EventProblem(`the event's ${field} is not an absolute path`);
  return value;
}

/**
 * The agent's permission mode as Keel's. An unknown name (a newer mode) decides as `default`, which
 * allows least; the caller is told so it can mention it.
 */
export function readMode(event: Record<string, unknown>): { mode?: PermissionMode; unknown?: string } {
  const value = optionalString(event, "permission_mode");
  if (value === undefined) return {};
  return isPermissionMode(value) ? { mode: value } : { mode: "default", unknown: value };
}

/** The project folder: the agent's project variable when it names an absolute path, else the cwd. */
export function projectDirOf(cwd: string, variable: string | undefined): string {
  return variable && isAbsolute(variable) ? variable : cwd;
}

/** What the model reads when Keel refuses: the reason and who decided, so it can recover. */
export function refusalText(verdict: Verdict): string {
  return `Keel refused this call: ${verdict.reason || "refused by policy"} (decided by ${verdict.decidedBy})`;
}

export function approvalText(verdict: Verdict): string {
  return `Keel: ${verdict.reason || "allowed"} (decided by ${verdict.decidedBy})`;
}

export function askText(verdict: Verdict): string {
  return `Keel: ${verdict.reason || "needs approval"} (decided by ${verdict.decidedBy})`;
}
