// One CLI session: settings from every source plus the command line, the tool pool, the services.
import { resolve } from "node:path";
import { parsePermissionMode } from "../permissions/modes.ts";
import type { PipelineServices } from "../pipeline/services.ts";
import { type LoadedSettings, loadSettings } from "../settings/load.ts";
import { SettingsError } from "../settings/readSettingsFile.ts";
import type { ToolUseContext } from "../tool/context.ts";
import { createToolUseContext } from "../tool/createContext.ts";
import { assembleToolPool } from "../tool/registry.ts";
import type { Tool } from "../tool/Tool.ts";
import { builtinTools } from "../tools/index.ts";
import { CliError } from "./exitCodes.ts";

export interface PolicyFlags {
  cwd?: string;
  mode?: string;
  allow?: string[];
  deny?: string[];
  ask?: string[];
  addDir?: string[];
  trust?: boolean;
  settings?: string;
}

export interface CliSession {
  context: ToolUseContext;
  services: PipelineServices;
  settings: LoadedSettings;
  tools: Tool[];
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function loadCliSettings(flags: PolicyFlags): LoadedSettings {
  const cwd = resolve(flags.cwd ?? process.cwd());
  try {
    return loadSettings({
      cwd,
      cli: {
        ...(flags.mode ? { permissionMode: parsePermissionMode(flags.mode) } : {}),
        allowedTools: flags.allow ?? [],
        disallowedTools: flags.deny ?? [],
        askTools: flags.ask ?? [],
        addDirs: flags.addDir ?? [],
        ...(flags.trust ? { trust: true } : {}),
        ...(flags.settings ? { settingsFile: flags.settings } : {}),
      },
    });
  } catch (error) {
    if (error instanceof SettingsError) throw new CliError(error.message);
    if (error instanceof Error && /Unknown permission mode/.test(error.message))
      throw new CliError(error.message);
    throw error;
  }
}

export function openSession(
  flags: PolicyFlags,
  options: { extraServices?: PipelineServices } = {},
): CliSession {
  const settings = loadCliSettings(flags);
  for (const warning of settings.warnings) process.stderr.write(`keel: ${warning}\n`);
  const tools = assembleToolPool(builtinTools(), [], settings.permissionContext);
  const context = createToolUseContext({
    tools,
    permissionContext: settings.permissionContext,
    isNonInteractiveSession: !(process.stdin.isTTY && process.stderr.isTTY),
  });
  return { context, services: { ...options.extraServices }, settings, tools };
}
