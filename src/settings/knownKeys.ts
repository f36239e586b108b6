// The settings keys Keel reads, and those Claude Code reads that Keel leaves alone (one file serves both
// programs). A key in neither is most likely a typo (`permisions`): it gets a warning with where it is
// and the nearest known key, instead of silently doing nothing.
import { HOOK_EVENTS, isHookEvent } from "../hooks/config.ts";
import { closestName } from "../tool/didYouMean.ts";
import { keyPositionOf, type ParsedJson } from "./jsonPositions.ts";

const KEEL_TOP_LEVEL = [
  "permissions",
  "hooks",
  "env",
  "sandbox",
  "allowManagedPermissionRulesOnly",
  "allowManagedHooksOnly",
  "disableAllHooks",
  "mcpServers",
  "enableAllProjectMcpServers",
  "enabledMcpjsonServers",
  "disabledMcpjsonServers",
  "apiKeyHelper",
  "lspServers",
  "worktree",
  "agents",
  "telemetry",
  "audit",
  // The agent's model settings (src/agent/config.ts).
  "model",
  "provider",
  "baseUrl",
  "contextWindow",
  "classifierModel",
];

/** Claude Code settings Keel does not use: kept without a warning. */
const CLAUDE_CODE_TOP_LEVEL = [
  "$schema",
  "agent",
  "allowedMcpServers",
  "allowManagedMcpServersOnly",
  "alwaysThinkingEnabled",
  "attribution",
  "autoConnectIde",
  "autoInstallIdeExtension",
  "autoMemoryDirectory",
  "autoUpdatesChannel",
  "availableModels",
  "awsAuthRefresh",
  "awsCredentialExport",
  "cleanupPeriodDays",
  "companyAnnouncements",
  "deniedMcpServers",
  "disableBypassPermissionsMode",
  "effortLevel",
  "enabledPlugins",
  "extraKnownMarketplaces",
  "fileSuggestion",
  "forceLoginMethod",
  "forceLoginOrgUUID",
  "includeCoAuthoredBy",
  "includeGitInstructions",
  "language",
  "otelHeadersHelper",
  "outputStyle",
  "plansDirectory",
  "prefersReducedMotion",
  "respectGitignore",
  "showTurnDuration",
  "spinnerTipsEnabled",
  "spinnerTipsOverride",
  "spinnerVerbs",
  "statusLine",
  "strictKnownMarketplaces",
  "teammateMode",
  "terminalProgressBarEnabled",
  "theme",
];

/** Objects whose keys are checked, by JSON path, with the keys each may hold. */
const KNOWN_KEYS: ReadonlyArray<{ path: readonly string[]; keys: readonly string[] }> = [
  { path: [], keys: [...KEEL_TOP_LEVEL, ...CLAUDE_CODE_TOP_LEVEL] },
  {
    path: ["permissions"],
    keys: [
      "allow",
      "deny",
      "ask",
      "defaultMode",
      "additionalDirectories",
      "disableBypassPermissionsMode",
      "disableAutoMode",
    ],
  },
  {
    path: ["sandbox"],
    keys: [
      "enabled",
      "autoAllowBashIfSandboxed",
      "excludedCommands",
      "allowUnsandboxedCommands",
      "network",
      "filesystem",
      "enableWeakerNestedSandbox",
      "ignoreViolations",
    ],
  },
  {
    path: ["sandbox", "network"],
    keys: [
      "allowedDomains",
      "deniedDomains",
      "allowUnixSockets",
      "allowAllUnixSockets",
      "allowLocalBinding",
      "httpProxyPort",
      "socksProxyPort",
    ],
  },
  { path: ["sandbox", "filesystem"], keys: ["allowWrite", "denyWrite", "allowRead", "denyRead"] },
  { path: ["worktree"], keys: ["directory"] },
  { path: ["agents"], keys: ["remote"] },
  { path: ["agents", "remote"], keys: ["queue", "claimTimeoutSeconds", "gitRemote"] },
  { path: ["agents", "remote", "queue"], keys: ["url", "name"] },
  { path: ["telemetry"], keys: ["enabled", "logToolDetails"] },
  { path: ["audit"], keys: ["maxSizeMB", "maxAgeDays"] },
];

function objectAt(value: unknown, path: readonly string[]): Record<string, unknown> | undefined {
  let current = value;
  for (const part of path) {
    if (current === null || typeof current !== "object" || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current !== null && typeof current === "object" && !Array.isArray(current)
    ? (current as Record<string, unknown>)
    : undefined;
}

/** `file:line:col: unknown setting "permisions" (ignored); did you mean "permissions"?` for each stray key. */
export function unknownKeyWarnings(parsed: ParsedJson, file: string): string[] {
  const warnings: string[] = [];
  for (const { path, keys } of KNOWN_KEYS) {
    const object = objectAt(parsed.value, path);
    if (!object) continue;
    for (const key of Object.keys(object)) {
      if (keys.includes(key)) continue;
      const at = keyPositionOf(parsed, [...path, key]);
      const name = [...path, key].join(".");
      const near = closestName(key, keys);
      warnings.push(
        `${file}:${at.line}:${at.column}: unknown setting "${name}" (ignored)` +
          (near ? `; did you mean "${[...path, near].join(".")}"?` : ""),
      );
    }
  }
  return warnings;
}

/**
 * `file:line:col: unknown hook event "PreTooluse" (ignored); did you mean "PreToolUse"?`. Reported for
 * every file, trusted or not: a typo is worth knowing before trusting the folder.
 */
export function unknownHookEventWarnings(parsed: ParsedJson, file: string): string[] {
  const hooks = objectAt(parsed.value, ["hooks"]);
  if (!hooks) return [];
  return Object.keys(hooks)
    .filter((event) => !isHookEvent(event))
    .map((event) => {
      const at = keyPositionOf(parsed, ["hooks", event]);
      const near = closestName(event, HOOK_EVENTS);
      return (
        `${file}:${at.line}:${at.column}: unknown hook event "${event}" (ignored)` +
        (near ? `; did you mean "${near}"?` : `; Keel knows ${HOOK_EVENTS.join(", ")}`)
      );
    });
}
