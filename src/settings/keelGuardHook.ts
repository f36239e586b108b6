// Keel's own entry in another agent's hook settings (`keel hook claude-code` and the like, put there by
// `keel hook install`). Keel reads Claude Code's settings, hooks included, but never runs these: its own
// calls are already decided by the same policy, and running them would decide each call twice and
// record Keel's calls as the other agent's.
import type { ConfiguredHook } from "../hooks/config.ts";

/** The agents Keel answers as a hook (guard/types.ts AGENTS; named here so loading settings need not load the guard). */
const GUARDED_AGENTS = ["claude-code", "gemini-cli", "codex"] as const;

/** True for a command that runs `keel hook <agent>` (bin/keel.js, a `keel` on PATH, npx keel...). */
export function isKeelHookCommand(command: unknown, agent: string): boolean {
  if (typeof command !== "string") return false;
  // The agent's name ends at a space, the end, or a shell separator (`exec keel hook codex; ...`).
  const pattern = new RegExp(`keel(?:\\.js)?['"]?\\s+hook\\s+${agent.replace("-", "\\-")}(?=[\\s;&|)]|$)`);
  return pattern.test(command);
}

/** A configured hook that is Keel answering for an agent: Keel's own sessions skip it. */
export function isKeelGuardHook(hook: ConfiguredHook): boolean {
  const handler = hook.handler;
  return (
    handler.type === "command" && GUARDED_AGENTS.some((agent) => isKeelHookCommand(handler.command, agent))
  );
}
