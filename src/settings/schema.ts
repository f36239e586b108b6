// The settings file shape (Claude Code compatible). Keys Keel does not use are kept, not rejected:
// one file serves both programs. Keys Keel reads must have the right type, or the file is an error.
import * as z from "zod";
import { hooksConfigSchema } from "../hooks/config.ts";
import { lspServerSettingsSchema } from "../lsp/servers.ts";
import { PERMISSION_MODES } from "../permissions/types.ts";
import { builtOnFirstUse } from "../tool/builtOnFirstUse.ts";

/** An MCP server entry: passed through to the MCP layer as data. */
export const McpServerSettingsSchema = z.looseObject({});

/**
 * A section most files do not have, built when a file first has one (see tool/builtOnFirstUse.ts). Not
 * `z.lazy(build).optional()`: an optional asks its inner schema whether that has a default, and an object
 * asks it of each of its keys on its first parse, so every settings file built the section. Here the
 * pipe's input, `unknown`, answers, and the section is built when a value reaches it.
 */
export function sectionBuiltWhenMet<T extends z.ZodType>(build: () => T) {
  return z.unknown().pipe(z.lazy(build)).optional();
}

/**
 * The settings file's schema, built when a file is first checked: ~75 zod schemas, a few ms of a
 * one-call process, which skips them when the file's check is remembered (settingsCheckCache.ts).
 */
export const settingsFileSchema = builtOnFirstUse(buildSettingsFileSchema);

function buildSettingsFileSchema() {
  const ruleList = z.array(z.string());

  const PermissionsSettingsSchema = z.looseObject({
    allow: ruleList.optional(),
    deny: ruleList.optional(),
    ask: ruleList.optional(),
    defaultMode: z.enum(PERMISSION_MODES).optional(),
    additionalDirectories: z.array(z.string()).optional(),
    disableBypassPermissionsMode: z.literal("disable").optional(),
  });

  const stringList = z.array(z.string().min(1));

  /** Claude Code's names. Lists merge across settings files; single values come from the highest source. */
  const SandboxSettingsSchema = z.looseObject({
    enabled: z.boolean().optional(),
    autoAllowBashIfSandboxed: z.boolean().optional(),
    /** Commands that run outside the sandbox (still through the permission checks): `docker`, `npm run e2e:*`. */
    excludedCommands: stringList.optional(),
    /** false: a Bash call's `dangerouslyDisableSandbox` is refused instead of asked. */
    allowUnsandboxedCommands: z.boolean().optional(),
    network: z.looseObject({ allowedDomains: stringList.optional() }).optional(),
    filesystem: z
      .looseObject({ allowWrite: stringList.optional(), denyWrite: stringList.optional() })
      .optional(),
  });

  /**
   * `agents.remote`: where `Agent` with `isolation: "remote"` sends its jobs and `keel worker` takes them.
   * `queue` is a Redis URL (queue name `keel-agents`) or `{ url, name }`.
   */
  const RemoteAgentsSettingsSchema = z.looseObject({
    queue: z
      .union([
        z.string().min(1),
        z.looseObject({ url: z.string().min(1), name: z.string().min(1).optional() }),
      ])
      .optional(),
    /** How long a job may wait for a worker before the parent reports it unclaimed (default 120). */
    claimTimeoutSeconds: z.number().int().positive().max(86_400).optional(),
    /** The git remote both sides reach (default `origin`). */
    gitRemote: z.string().min(1).optional(),
  });

  return z.looseObject({
    permissions: PermissionsSettingsSchema.optional(),
    hooks: sectionBuiltWhenMet(hooksConfigSchema),
    env: z.record(z.string(), z.string()).optional(),
    sandbox: SandboxSettingsSchema.optional(),
    allowManagedPermissionRulesOnly: z.boolean().optional(),
    allowManagedHooksOnly: z.boolean().optional(),
    disableAllHooks: z.boolean().optional(),
    mcpServers: z.record(z.string(), McpServerSettingsSchema).optional(),
    enableAllProjectMcpServers: z.boolean().optional(),
    enabledMcpjsonServers: z.array(z.string()).optional(),
    disabledMcpjsonServers: z.array(z.string()).optional(),
    apiKeyHelper: z.string().optional(),
    /** Language servers for the LSP tool, keyed by name (the shape of Claude Code's `.lsp.json`). */
    lspServers: sectionBuiltWhenMet(() => z.record(z.string(), lspServerSettingsSchema())),
    /**
     * OpenTelemetry export of decisions (src/telemetry/config.ts says which source may set what); where
     * they go is the OTEL_* variables, in the environment or `env`.
     */
    telemetry: z
      .looseObject({ enabled: z.boolean().optional(), logToolDetails: z.boolean().optional() })
      .optional(),
    /** EnterWorktree: `directory` is where worktrees are created (default `<repo>/.keel/worktrees`). */
    worktree: z.looseObject({ directory: z.string().min(1).optional() }).optional(),
    /** Sub-agents beyond this machine: `agents.remote` (remote/config.ts). */
    agents: z.looseObject({ remote: RemoteAgentsSettingsSchema.optional() }).optional(),
    /** The audit log's bounds (read from your own settings and managed policy only; see merge.ts). */
    audit: z
      .looseObject({
        maxSizeMB: z.number().min(1).max(1_000_000).optional(),
        maxAgeDays: z.number().min(1).max(36_500).optional(),
      })
      .optional(),
    /** The agent's model (agent/config.ts): `model` is Claude Code's key too (`sonnet`, `opus` or a full name). */
    model: z.string().optional(),
    /** `anthropic` or `openai` (any OpenAI-compatible server). */
    provider: z.string().optional(),
    baseUrl: z.string().optional(),
    contextWindow: z.number().int().positive().optional(),
    classifierModel: z.string().optional(),
  });
}

export type SettingsFile = z.infer<ReturnType<typeof buildSettingsFileSchema>>;
export type SandboxSettings = NonNullable<SettingsFile["sandbox"]>;
export type RemoteAgentsSettings = NonNullable<NonNullable<SettingsFile["agents"]>["remote"]>;
export type McpServerSettings = z.infer<typeof McpServerSettingsSchema>;
export type AuditSettings = NonNullable<SettingsFile["audit"]>;
