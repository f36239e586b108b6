// Whether Codex will run Keel's hook. Codex runs a user's or project's command hook only once a person
// has trusted its exact definition (`/hooks` in Codex) or with `--dangerously-bypass-hook-trust`. It
// records trust in its config.toml as `[hooks.state."<hooks.json path>:<event>:<group>:<handler>"]` with
// `trusted_hash` (and `enabled = false` for a hook switched off), the hash being sha256 of the hook's
// normalized definition as canonical JSON. A project's hooks load only in a project Codex trusts
// (`[projects."<path>"] trust_level = "trusted"`). Measured on Codex 0.171.0 against its own `hooks/list`.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { userHomeDir } from "../settings/locations.ts";
import { isKeelHookCommand } from "./hookEntries.ts";

export type CodexTrust =
  /** Trusted as it is now: Codex runs it. */
  | "trusted"
  /** Never trusted: Codex skips it. */
  | "untrusted"
  /** Trusted once, changed since (reinstalled, other flags): Codex skips it until trusted again. */
  | "modified"
  /** Switched off in /hooks. */
  | "disabled"
  /** An entry with fields Keel did not write: its hash cannot be worked out here. */
  | "unknown";

export interface CodexHookTrust {
  /** Codex's key for the entry. */
  key: string;
  event: string;
  trust: CodexTrust;
}

export interface CodexTrustReport {
  /** Codex's config.toml, where trust is recorded. */
  configPath: string;
  hooks: CodexHookTrust[];
  /** For a project's hooks.json: whether Codex trusts the project (else it does not load the file). */
  projectTrusted?: boolean;
  /** config.toml exists but cannot be read. */
  problem?: string;
}

/** `PreToolUse` -> `pre_tool_use`: Codex's label for an event in keys and hashes. */
export function codexEventLabel(event: string): string {
  return event.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}

const HASHED_FIELDS = new Set(["type", "command", "timeout", "async"]);

/**
 * Codex's hash of one command hook, as it normalizes it: the event's label, the group's matcher when it
 * has one, and the handler with its timeout (600 s when unset) and async flag. Undefined for a handler
 * with fields Keel does not write (their normal form is not known here).
 */
export function codexHookHash(
  event: string,
  matcher: string | undefined,
  hook: Record<string, unknown>,
): string | undefined {
  if (Object.keys(hook).some((field) => !HASHED_FIELDS.has(field))) return undefined;
  if (hook.type !== "command" || typeof hook.command !== "string") return undefined;
  const timeout = typeof hook.timeout === "number" ? Math.max(1, Math.floor(hook.timeout)) : 600;
  const identity = {
    event_name: codexEventLabel(event),
    ...(matcher === undefined ? {} : { matcher }),
    hooks: [{ type: "command", command: hook.command, timeout, async: hook.async === true }],
  };
  return `sha256:${createHash("sha256")
    .update(JSON.stringify(sortedKeys(identity)))
    .digest("hex")}`;
}

interface HookState {
  trusted_hash?: string;
  enabled?: boolean;
}

function objectAt(value: unknown, ...path: string[]): Record<string, unknown> | undefined {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object" || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current !== null && typeof current === "object" && !Array.isArray(current)
    ? (current as Record<string, unknown>)
    : undefined;
}

export function codexConfigPath(env: NodeJS.ProcessEnv): string {
  return join(env.CODEX_HOME || join(userHomeDir(env), ".codex"), "config.toml");
}

/** Codex's trust of Keel's entries in one hooks.json (`settings` is the file's object). */
export function codexTrust(
  hooksPath: string,
  settings: Record<string, unknown>,
  options: { env: NodeJS.ProcessEnv; project?: string },
): CodexTrustReport {
  const configPath = codexConfigPath(options.env);
  let config: Record<string, unknown> = {};
  let problem: string | undefined;
  if (existsSync(configPath)) {
    try {
      config = parseToml(readFileSync(configPath, "utf8")) as Record<string, unknown>;
    } catch (error) {
      problem = `cannot read ${configPath}: ${(error as Error).message.split("\n")[0]}`;
    }
  }
  const states = objectAt(config, "hooks", "state") ?? {};
  const hooks: CodexHookTrust[] = [];
  for (const [event, groups] of Object.entries(objectAt(settings, "hooks") ?? {})) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group, groupIndex) => {
      const handlers = objectAt(group)?.hooks;
      if (!Array.isArray(handlers)) return;
      const matcher = objectAt(group)?.matcher;
      handlers.forEach((handler, handlerIndex) => {
        const hook = objectAt(handler);
        if (!hook || !isKeelHookCommand(hook.command, "codex")) return;
        const key = `${hooksPath}:${codexEventLabel(event)}:${groupIndex}:${handlerIndex}`;
        const state = (states[key] ?? {}) as HookState;
        const hash = codexHookHash(event, typeof matcher === "string" ? matcher : undefined, hook);
        const trust: CodexTrust =
          state.enabled === false
            ? "disabled"
            : hash === undefined
              ? "unknown"
              : state.trusted_hash === undefined
                ? "untrusted"
                : state.trusted_hash === hash
                  ? "trusted"
                  : "modified";
        hooks.push({ key, event, trust });
      });
    });
  }
  const project = options.project;
  return {
    configPath,
    hooks,
    ...(project === undefined
      ? {}
      : { projectTrusted: objectAt(config, "projects", project)?.trust_level === "trusted" }),
    ...(problem ? { problem } : {}),
  };
}

/** The project a project-scope hooks.json belongs to (`<project>/.codex/hooks.json`). */
export function projectOfCodexHooks(hooksPath: string): string {
  return dirname(dirname(hooksPath));
}

/** One line for `keel hook status`: whether Codex will run the hook, and what to do if not. */
export function describeCodexTrust(report: CodexTrustReport): string[] {
  const lines: string[] = [];
  if (report.problem) lines.push(`  Codex trust: unknown (${report.problem})`);
  if (report.projectTrusted === false)
    lines.push(
      "  Codex will not load this file: the project is not trusted in Codex (it asks on the first start in the folder).",
    );
  const trusts = new Set(report.hooks.map((hook) => hook.trust));
  const events = (trust: CodexTrust) =>
    report.hooks
      .filter((hook) => hook.trust === trust)
      .map((hook) => hook.event)
      .join(", ");
  if (trusts.size === 1 && trusts.has("trusted")) {
    lines.push(`  Codex runs it: trusted in /hooks (${report.configPath}).`);
    return lines;
  }
  const review =
    "open /hooks in Codex and trust Keel's entries; until then `codex exec` runs it only with --dangerously-bypass-hook-trust";
  if (trusts.has("untrusted"))
    lines.push(`  Codex skips it (${events("untrusted")}): not trusted yet; ${review}.`);
  if (trusts.has("modified"))
    lines.push(`  Codex skips it (${events("modified")}): changed since it was trusted; ${review}.`);
  if (trusts.has("disabled"))
    lines.push(`  Codex skips it (${events("disabled")}): switched off in /hooks; turn it on there.`);
  if (trusts.has("unknown"))
    lines.push(
      `  Codex trust of ${events("unknown")} unknown: the entry has fields Keel did not write; check /hooks in Codex.`,
    );
  if (trusts.has("trusted")) lines.push(`  Codex runs ${events("trusted")}: trusted in /hooks.`);
  return lines;
}
