// Permission modes: what each one loosens or tightens, in one place.
import { PERMISSION_MODES, type PermissionMode } from "./types.ts";

export const MODE_DESCRIPTIONS: Record<PermissionMode, string> = {
  default: "ask before anything that is not a read inside the working directories",
  acceptEdits: "file edits inside the working directories are allowed without asking",
  plan: "read-only: tools that change anything are refused",
  bypassPermissions: "everything is allowed except deny rules, ask rules and protected paths",
  dontAsk: "every call that would ask is refused instead",
  auto: "like default, but a model-based classifier may approve low-risk calls that would ask (never deny rules, ask rules or protected paths)",
};

export function isPermissionMode(value: string): value is PermissionMode {
  return (PERMISSION_MODES as readonly string[]).includes(value);
}

export function parsePermissionMode(value: string): PermissionMode {
  if (isPermissionMode(value)) return value;
  throw new Error(`Unknown permission mode "${value}". Use one of: ${PERMISSION_MODES.join(", ")}.`);
}
