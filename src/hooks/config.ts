// The hooks section of a settings file (the Claude Code shape), and the flat list the runner works on.
import * as z from "zod";
import type { RuleSource } from "../permissions/types.ts";
import { builtOnFirstUse } from "../tool/builtOnFirstUse.ts";

export const HOOK_EVENTS = [
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionRequest",
  "UserPromptSubmit",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "SessionStart",
  "SessionEnd",
  "Notification",
  "PreCompact",
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export function isHookEvent(name: string): name is HookEvent {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}

/** Seconds. Tool hooks may take long (a test suite); SessionEnd must not hold up exit. */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 600;
export const SESSION_END_TIMEOUT_SECONDS = 1.5;

export function defaultTimeoutSeconds(event: HookEvent): number {
  return event === "SessionEnd" ? SESSION_END_TIMEOUT_SECONDS : DEFAULT_HOOK_TIMEOUT_SECONDS;
}

/**
 * The hooks section's schemas, built when a settings file with hooks is first checked (a process that
 * reads none never builds them).
 */
const hookSchemas = builtOnFirstUse(() => {
  const timeout = z.number().positive().max(86_400).optional();
  const ifRule = z.string().min(1).optional();
  const command = z.looseObject({
    type: z.literal("command"),
    command: z.string().min(1),
    timeout,
    if: ifRule,
    statusMessage: z.string().optional(),
  });
  const http = z.looseObject({
    type: z.literal("http"),
    url: z.url({ protocol: /^https?$/ }),
    headers: z.record(z.string(), z.string()).optional(),
    /** Only these environment variables may be interpolated into headers ($VAR / ${VAR}). */
    allowedEnvVars: z.array(z.string()).optional(),
    timeout,
    if: ifRule,
    statusMessage: z.string().optional(),
  });
  const handler = z.discriminatedUnion("type", [
    command,
    http,
    // Model-run handler types of the reference: accepted as data, reported as unsupported.
    z.looseObject({ type: z.literal("prompt") }),
    z.looseObject({ type: z.literal("agent") }),
    // Claude Code's MCP-tool handler: also accepted as data and reported, so such a settings file still loads.
    z.looseObject({ type: z.literal("mcp_tool") }),
  ]);
  const matcher = z.looseObject({ matcher: z.string().optional(), hooks: z.array(handler) });
  return { command, http, config: z.record(z.string(), z.array(matcher)) };
});

/** The `hooks` section of a settings file. */
export function hooksConfigSchema(): ReturnType<typeof hookSchemas>["config"] {
  return hookSchemas().config;
}

export type CommandHook = z.infer<ReturnType<typeof hookSchemas>["command"]>;
export type HttpHook = z.infer<ReturnType<typeof hookSchemas>["http"]>;
export type HookHandler = CommandHook | HttpHook;
export type HooksConfig = z.infer<ReturnType<typeof hooksConfigSchema>>;

/** One hook as configured, with where it came from. */
export interface ConfiguredHook {
  event: HookEvent;
  /** "" or "*" = every query. */
  matcher: string;
  handler: HookHandler;
  source: RuleSource;
  /** The settings file it was read from, for `keel hooks`. */
  file?: string;
}

export function hookDisplayName(handler: HookHandler): string {
  return handler.type === "command" ? handler.command : `${handler.type} ${handler.url}`;
}

/** Flattens one file's hooks section. Unknown events are skipped; unsupported handler types become warnings. */
export function flattenHooks(
  config: HooksConfig | undefined,
  source: RuleSource,
  file?: string,
): { hooks: ConfiguredHook[]; warnings: string[] } {
  const hooks: ConfiguredHook[] = [];
  const warnings: string[] = [];
  const where = file ?? `${source} settings`;
  for (const [event, groups] of Object.entries(config ?? {})) {
    // Reported where the file is read, with its line and column (settings/knownKeys.ts).
    if (!isHookEvent(event)) continue;
    for (const group of groups) {
      for (const handler of group.hooks) {
        if (handler.type !== "command" && handler.type !== "http") {
          warnings.push(
            `${where}: ${event} hook of type "${handler.type}" is not supported by Keel and was ignored`,
          );
          continue;
        }
        hooks.push({
          event,
          matcher: group.matcher ?? "",
          handler,
          source,
          ...(file === undefined ? {} : { file }),
        });
      }
    }
  }
  return { hooks, warnings };
}
