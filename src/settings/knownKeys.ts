// The settings keys Keel reads (its schema's, found in the schema itself), and those Claude Code reads that
// Keel leaves alone (one file serves both programs). A key in neither is most likely a typo
// (`permisions`): it gets a warning with where it is and the nearest known key, instead of silently doing
// nothing.
import * as z from "zod";
import { HOOK_EVENTS, isHookEvent } from "../hooks/config.ts";
import { closestName } from "../tool/didYouMean.ts";
import { keyPositionOf, type ParsedJson } from "./jsonPositions.ts";
import { settingsFileSchema } from "./schema.ts";

/** The keys an object of the settings may hold, by its JSON path. */
export interface KnownKeys {
  path: readonly string[];
  keys: readonly string[];
}

/** Claude Code settings Keel does not use, by the JSON path of the object holding them: kept without a warning. */
export const CLAUDE_CODE_ONLY_KEYS: readonly KnownKeys[] = [
  {
    path: [],
    keys: [
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
    ],
  },
  { path: ["permissions"], keys: ["disableAutoMode"] },
  { path: ["sandbox"], keys: ["enableWeakerNestedSandbox", "ignoreViolations"] },
  {
    path: ["sandbox", "network"],
    keys: [
      "deniedDomains",
      "allowUnixSockets",
      "allowAllUnixSockets",
      "allowLocalBinding",
      "httpProxyPort",
      "socksProxyPort",
    ],
  },
  { path: ["sandbox", "filesystem"], keys: ["allowRead", "denyRead"] },
];

/**
 * The objects of a schema whose keys are settings, by JSON path: every object reached through object
 * keys, optional values and union members. Records (`hooks`, `env`, `mcpServers`, `lspServers`) are not
 * entered: their keys are names the person chooses.
 */
export function schemaObjectKeys(schema: z.ZodType, path: readonly string[] = []): KnownKeys[] {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable)
    return schemaObjectKeys(schema.unwrap() as z.ZodType, path);
  if (schema instanceof z.ZodUnion)
    return (schema.options as readonly z.ZodType[]).flatMap((option) => schemaObjectKeys(option, path));
  if (!(schema instanceof z.ZodObject)) return [];
  const shape = schema.shape as Record<string, z.ZodType>;
  return [
    { path, keys: Object.keys(shape) },
    ...Object.entries(shape).flatMap(([key, value]) => schemaObjectKeys(value, [...path, key])),
  ];
}

/** The settings schema's keys and Claude Code's own, merged by path (the schema's objects only). */
function knownSettingsKeys(): KnownKeys[] {
  const byPath = new Map<string, { path: readonly string[]; keys: Set<string> }>();
  for (const { path, keys } of schemaObjectKeys(settingsFileSchema())) {
    const entry = byPath.get(path.join(".")) ?? { path, keys: new Set<string>() };
    for (const key of keys) entry.keys.add(key);
    byPath.set(path.join("."), entry);
  }
  for (const { path, keys } of CLAUDE_CODE_ONLY_KEYS)
    for (const key of keys) byPath.get(path.join("."))?.keys.add(key);
  return [...byPath.values()].map(({ path, keys }) => ({ path, keys: [...keys] }));
}

let known: KnownKeys[] | undefined;

/** Objects whose keys are checked, by JSON path, with the keys each may hold. */
export function knownKeys(): readonly KnownKeys[] {
  known ??= knownSettingsKeys();
  return known;
}

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
  for (const { path, keys } of knownKeys()) {
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
