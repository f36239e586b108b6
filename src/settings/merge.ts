// Merging the sources. Rules of every source merge (the engine applies deny > ask > allow); single
// values (defaultMode, env keys, sandbox keys) come from the highest-precedence source that sets them.
import { isAbsolute, join, resolve } from "node:path";
import { type ConfiguredHook, flattenHooks } from "../hooks/config.ts";
import type { LspServerEntry } from "../lsp/servers.ts";
import type { PermissionMode, RuleSource } from "../permissions/types.ts";
import type { RulesBySource, WorkingDirectory } from "../tool/context.ts";
import type {
  AuditSettings,
  McpServerSettings,
  RemoteAgentsSettings,
  SandboxSettings,
  SettingsFile,
} from "./schema.ts";

export interface SourceSettings {
  source: RuleSource;
  /** The file these came from; absent for CLI flags. */
  file?: string;
  settings: SettingsFile;
}

export interface McpServerEntry {
  name: string;
  config: McpServerSettings;
  source: RuleSource;
  file?: string;
}

export interface MergedSettings {
  allow: RulesBySource;
  deny: RulesBySource;
  ask: RulesBySource;
  defaultMode?: { mode: PermissionMode; source: RuleSource; file?: string };
  additionalDirectories: WorkingDirectory[];
  /** Who turned bypassPermissions off, if anyone. */
  bypassDisabledBy?: string;
  hooks: ConfiguredHook[];
  env: Record<string, string>;
  sandbox: SandboxSettings;
  /** `worktree.directory`, resolved (relative to the project, or home for user settings). */
  worktreesDir?: string;
  /** `agents.remote`: each key from the highest source that sets it, with that source's name. */
  remoteAgents: RemoteAgentsSettings & { from?: string };
  /** `audit.maxSizeMB` and `audit.maxAgeDays`, each from the highest source that may set it. */
  audit: AuditSettings;
  mcpServers: McpServerEntry[];
  /** Language servers by name; the highest-precedence source's entry wins. */
  lspServers: LspServerEntry[];
  /** Keys read as data for other parts (the MCP layer): later sources do not override earlier ones. */
  mcpSettings: Pick<
    SettingsFile,
    "enableAllProjectMcpServers" | "enabledMcpjsonServers" | "disabledMcpjsonServers"
  >;
  warnings: string[];
}

function label(entry: SourceSettings): string {
  return entry.file ?? `${entry.source} settings`;
}

function expandDir(dir: string, base: string, home: string): string {
  if (dir === "~") return home;
  if (dir.startsWith("~/")) return join(home, dir.slice(2));
  return isAbsolute(dir) ? resolve(dir) : resolve(base, dir);
}

function union(a: readonly string[] | undefined, b: readonly string[] | undefined): string[] | undefined {
  if (!b?.length) return a ? [...a] : undefined;
  return [...new Set([...(a ?? []), ...b])];
}

/**
 * One source's sandbox settings into the merged ones: lists (excluded commands, allowed domains, write
 * allow and deny paths, resolved like additionalDirectories) from every source, other keys from the
 * highest source that sets them.
 */
function mergeSandbox(
  into: SandboxSettings,
  from: SandboxSettings | undefined,
  resolvePath: (path: string) => string,
): void {
  if (!from) return;
  const target = into as Record<string, unknown>;
  for (const [key, value] of Object.entries(from))
    if (!["excludedCommands", "network", "filesystem"].includes(key) && !(key in target)) target[key] = value;
  const excluded = union(into.excludedCommands, from.excludedCommands);
  if (excluded) into.excludedCommands = excluded;
  if (from.network) {
    const { allowedDomains, ...rest } = from.network;
    const domains = union(into.network?.allowedDomains, allowedDomains);
    into.network = { ...rest, ...into.network, ...(domains ? { allowedDomains: domains } : {}) };
  }
  if (from.filesystem) {
    const { allowWrite, denyWrite, ...rest } = from.filesystem;
    const allow = union(into.filesystem?.allowWrite, allowWrite?.map(resolvePath));
    const deny = union(into.filesystem?.denyWrite, denyWrite?.map(resolvePath));
    into.filesystem = {
      ...rest,
      ...into.filesystem,
      ...(allow ? { allowWrite: allow } : {}),
      ...(deny ? { denyWrite: deny } : {}),
    };
  }
}

/** Sources that may bound the audit log: it is the user's own record of every call, in their home. */
const AUDIT_SOURCES: ReadonlySet<RuleSource> = new Set(["policy", "cliArg", "user"]);

/** One source's `audit` keys: a project's own settings cannot shorten the user's log (a warning says so). */
function mergeAudit(merged: MergedSettings, entry: SourceSettings): void {
  const audit = entry.settings.audit;
  if (!audit) return;
  const given = (["maxSizeMB", "maxAgeDays"] as const).filter((key) => audit[key] !== undefined);
  if (given.length === 0) return;
  if (!AUDIT_SOURCES.has(entry.source)) {
    merged.warnings.push(
      `${label(entry)}: ${given.map((key) => `audit.${key}`).join(" and ")} ignored: the audit log is yours, ` +
        "so only your own settings (~/.keel/settings.json) and managed policy bound it",
    );
    return;
  }
  for (const key of given) merged.audit[key] ??= audit[key];
}

/**
 * Merges sources given highest precedence first. `anchors` tells where relative directories of each
 * source resolve (the project root, or home for user settings).
 */
export function mergeSettings(
  sources: readonly SourceSettings[],
  anchors: { projectRoot: string; home: string },
): MergedSettings {
  const policy = sources.filter((entry) => entry.source === "policy");
  const managedRulesOnly = policy.some((entry) => entry.settings.allowManagedPermissionRulesOnly === true);
  const managedHooksOnly = policy.some((entry) => entry.settings.allowManagedHooksOnly === true);
  const allHooksOff = policy.some((entry) => entry.settings.disableAllHooks === true);
  const ownHooksOff = sources.some(
    (entry) => entry.source !== "policy" && entry.settings.disableAllHooks === true,
  );

  const merged: MergedSettings = {
    allow: {},
    deny: {},
    ask: {},
    additionalDirectories: [],
    hooks: [],
    env: {},
    sandbox: {},
    remoteAgents: {},
    audit: {},
    mcpServers: [],
    lspServers: [],
    mcpSettings: {},
    warnings: [],
  };
  const ignoredRuleSources = new Set<string>();
  const ignoredHookSources = new Set<string>();

  for (const entry of sources) {
    const { settings, source } = entry;
    const permissions = settings.permissions;
    const rulesAllowed = !managedRulesOnly || source === "policy";
    for (const behavior of ["allow", "deny", "ask"] as const) {
      const rules = permissions?.[behavior];
      if (!rules?.length) continue;
      if (!rulesAllowed) {
        ignoredRuleSources.add(label(entry));
        continue;
      }
      merged[behavior][source] = [...(merged[behavior][source] ?? []), ...rules];
    }
    if (permissions?.defaultMode && !merged.defaultMode) {
      merged.defaultMode = {
        mode: permissions.defaultMode,
        source,
        ...(entry.file ? { file: entry.file } : {}),
      };
    }
    const base = source === "user" ? anchors.home : source === "policy" ? "/" : anchors.projectRoot;
    for (const dir of permissions?.additionalDirectories ?? []) {
      const path = expandDir(dir, base, anchors.home);
      if (!merged.additionalDirectories.some((known) => known.path === path))
        merged.additionalDirectories.push({ path, source });
    }
    if (permissions?.disableBypassPermissionsMode === "disable" && !merged.bypassDisabledBy)
      merged.bypassDisabledBy = label(entry);

    const hooksAllowed =
      source === "policy" ? !allHooksOff : !allHooksOff && !ownHooksOff && !managedHooksOnly;
    if (settings.hooks && Object.keys(settings.hooks).length > 0) {
      if (hooksAllowed) {
        const flat = flattenHooks(settings.hooks, source, entry.file);
        merged.hooks.push(...flat.hooks);
        merged.warnings.push(...flat.warnings);
      } else {
        ignoredHookSources.add(label(entry));
      }
    }

    for (const [key, value] of Object.entries(settings.env ?? {}))
      if (!(key in merged.env)) merged.env[key] = value;
    mergeSandbox(merged.sandbox, settings.sandbox, (path) => expandDir(path, base, anchors.home));
    const worktreesDir = settings.worktree?.directory;
    if (worktreesDir && merged.worktreesDir === undefined)
      merged.worktreesDir = expandDir(worktreesDir, base, anchors.home);
    for (const [key, value] of Object.entries(settings.agents?.remote ?? {})) {
      const remote = merged.remoteAgents as Record<string, unknown>;
      if (value === undefined || key in remote) continue;
      remote[key] = value;
      if (key === "queue") merged.remoteAgents.from = label(entry);
    }
    mergeAudit(merged, entry);
    for (const [name, config] of Object.entries(settings.mcpServers ?? {})) {
      if (merged.mcpServers.some((known) => known.name === name)) continue;
      merged.mcpServers.push({ name, config, source, ...(entry.file ? { file: entry.file } : {}) });
    }
    for (const [name, config] of Object.entries(settings.lspServers ?? {})) {
      if (merged.lspServers.some((known) => known.name === name)) continue;
      merged.lspServers.push({ name, config, ...(entry.file ? { file: entry.file } : {}) });
    }
    for (const key of [
      "enableAllProjectMcpServers",
      "enabledMcpjsonServers",
      "disabledMcpjsonServers",
    ] as const) {
      if (settings[key] !== undefined && merged.mcpSettings[key] === undefined)
        (merged.mcpSettings as Record<string, unknown>)[key] = settings[key];
    }
  }

  if (ignoredRuleSources.size > 0)
    merged.warnings.push(
      `Managed policy allows only its own permission rules; rules from ${[...ignoredRuleSources].join(", ")} were ignored`,
    );
  if (ignoredHookSources.size > 0) {
    const why = allHooksOff
      ? "managed policy disables all hooks"
      : managedHooksOnly
        ? "managed policy allows only its own hooks"
        : "disableAllHooks is set";
    merged.warnings.push(`Hooks from ${[...ignoredHookSources].join(", ")} were not loaded: ${why}`);
  }
  return merged;
}
