// Which Bash calls run outside the OS sandbox: commands matching `sandbox.excludedCommands`, and calls
// that ask for it with `dangerouslyDisableSandbox`. Either way they are judged as if no sandbox were
// on (no sandbox auto-allow), since nothing contains them.
import {
  type SandboxPolicySettings,
  type ToolPermissionContext,
  updatePermissionContext,
} from "../../tool/context.ts";
import { denyRuleMatches } from "../analyze/ruleMatcher.ts";

/** `docker` means every docker command (`docker:*`); patterns with `:*` or `*` are Bash rule patterns. */
export function excludedCommandPattern(entry: string): string {
  const text = entry.trim();
  return text.includes("*") ? text : `${text}:*`;
}

/**
 * The excluded pattern any command of the line matches (nested, wrapped: read as broadly as a deny
 * rule, since running unsandboxed means the ordinary, stricter permission checks), or undefined.
 * The Bash parser must be ready.
 */
export function sandboxExclusionOf(command: string, context: ToolPermissionContext): string | undefined {
  if (!context.sandbox.enabled) return undefined;
  return context.sandbox.excludedCommands?.find((entry) =>
    denyRuleMatches(command, excludedCommandPattern(entry)),
  );
}

/** The session's policy as a command running outside the sandbox (and the confinement) is judged under. */
export function withoutSandbox(context: ToolPermissionContext): ToolPermissionContext {
  // The lists are copied (readonly in the frozen policy) and frozen again in the new one.
  const sandbox = { ...context.sandbox, enabled: false, confinement: false } as SandboxPolicySettings;
  return updatePermissionContext(context, { sandbox });
}
