// Loading a session's settings: every source read and checked, the project's loosening parts held back
// until the folder is trusted, the rest merged into a permission context, hooks, env and MCP data.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { ConfiguredHook } from "../hooks/config.ts";
import type { LspServerEntry } from "../lsp/servers.ts";
import { ruleContentProblem } from "../permissions/matchers.ts";
import { parseRuleValue } from "../permissions/rules.ts";
import type { PermissionMode, RuleSource } from "../permissions/types.ts";
import { deepFreeze, type SandboxPolicySettings, type ToolPermissionContext } from "../tool/context.ts";
import type { Tools } from "../tool/Tool.ts";
import { ruleRootFor, settingsLocations, userHomeDir } from "./locations.ts";
import { readProjectMcpJson } from "./mcpJson.ts";
import { type McpServerEntry, type MergedSettings, mergeSettings, type SourceSettings } from "./merge.ts";
import { type ReadSettingsOptions, readSettingsFile, SettingsError } from "./readSettingsFile.ts";
import type { SandboxSettings, SettingsFile } from "./schema.ts";
import { isFolderTrusted, trustFolder } from "./trust.ts";
import { stripLooseningParts } from "./untrusted.ts";

export interface CliSettingsFlags {
  permissionMode?: PermissionMode;
  allowedTools?: readonly string[];
  disallowedTools?: readonly string[];
  askTools?: readonly string[];
  addDirs?: readonly string[];
  /** `--trust`: trust the project folder now, and remember it. */
  trust?: boolean;
  /** `--settings <file>`: one more settings file, read with CLI precedence. */
  settingsFile?: string;
}

export interface LoadSettingsOptions {
  cwd: string;
  cli?: CliSettingsFlags;
  env?: NodeJS.ProcessEnv;
  /** The session's tools: rule specifiers are checked by the matcher of the tool they name. */
  tools?: Tools;
}

export interface UntrustedReport {
  file: string;
  ignored: string[];
}

export interface LoadedSettings {
  projectRoot: string;
  trusted: boolean;
  /** What was applied, highest precedence first (project parts already held back when untrusted). */
  sources: SourceSettings[];
  permissionContext: ToolPermissionContext;
  hooks: ConfiguredHook[];
  env: Record<string, string>;
  sandbox: SandboxSettings;
  /** Where EnterWorktree creates worktrees (settings `worktree.directory`), when set. */
  worktreesDir?: string;
  mcpServers: McpServerEntry[];
  /** Language servers for the LSP tool (a project's own only once the folder is trusted). */
  lspServers: LspServerEntry[];
  mcpSettings: MergedSettings["mcpSettings"];
  /** Everything the user should be told: untrusted parts ignored, rules skipped, modes refused. */
  warnings: string[];
  /** Per project file, the parts not applied because the folder is not trusted. */
  untrusted: UntrustedReport[];
}

const SOURCE_ORDER: readonly RuleSource[] = ["policy", "cliArg", "local", "project", "user"];

function cliSettings(cli: CliSettingsFlags): SettingsFile {
  const permissions: NonNullable<SettingsFile["permissions"]> = {};
  if (cli.allowedTools?.length) permissions.allow = [...cli.allowedTools];
  if (cli.disallowedTools?.length) permissions.deny = [...cli.disallowedTools];
  if (cli.askTools?.length) permissions.ask = [...cli.askTools];
  if (cli.addDirs?.length) permissions.additionalDirectories = [...cli.addDirs];
  if (cli.permissionMode) permissions.defaultMode = cli.permissionMode;
  return { permissions };
}

function checkCliRules(cli: CliSettingsFlags): void {
  const flags = [
    ["--allowedTools", cli.allowedTools],
    ["--disallowedTools", cli.disallowedTools],
    ["--ask", cli.askTools],
  ] as const;
  const problems = [];
  for (const [flag, rules] of flags) {
    for (const [index, rule] of (rules ?? []).entries()) {
      try {
        parseRuleValue(rule);
      } catch (error) {
        problems.push({
          file: `command line ${flag}`,
          line: 1,
          column: index + 1,
          path: "",
          message: (error as Error).message,
        });
      }
    }
  }
  if (problems.length > 0) throw new SettingsError(problems);
}

/** Reads every source. Throws SettingsError (file:line:col) on any broken file. */
export function loadSettings(options: LoadSettingsOptions): LoadedSettings {
  const env = options.env ?? process.env;
  const cli = options.cli ?? {};
  const projectRoot = resolve(options.cwd);
  const home = userHomeDir(env);
  checkCliRules(cli);
  const tools = options.tools;
  const readOptions: ReadSettingsOptions = tools
    ? { checkRuleContent: (name, content) => ruleContentProblem(tools, name, content) }
    : {};

  const warnings: string[] = [];
  const raw: SourceSettings[] = [];
  const problems: SettingsError[] = [];
  for (const location of settingsLocations(projectRoot, env)) {
    try {
      const read = readSettingsFile(location.path, readOptions);
      if (!read) continue;
      warnings.push(...read.warnings);
      raw.push({ source: location.source, file: location.path, settings: read.settings });
    } catch (error) {
      if (error instanceof SettingsError) problems.push(error);
      else throw error;
    }
  }
  if (cli.settingsFile) {
    try {
      const path = resolve(projectRoot, cli.settingsFile);
      const read = readSettingsFile(path, readOptions);
      if (!read)
        throw new SettingsError([
          { file: path, line: 1, column: 1, path: "", message: "file not found (--settings)" },
        ]);
      raw.push({ source: "cliArg", file: path, settings: read.settings });
    } catch (error) {
      if (error instanceof SettingsError) problems.push(error);
      else throw error;
    }
  }
  if (problems.length > 0) throw new SettingsError(problems.flatMap((problem) => problem.problems));
  raw.push({ source: "cliArg", settings: cliSettings(cli) });

  let trusted = isFolderTrusted(projectRoot, env);
  if (cli.trust && !trusted) {
    trustFolder(projectRoot, env);
    trusted = true;
  }

  const untrusted: UntrustedReport[] = [];
  const sources: SourceSettings[] = raw.map((entry) => {
    if (trusted || (entry.source !== "project" && entry.source !== "local")) return entry;
    const stripped = stripLooseningParts(entry.settings);
    if (stripped.ignored.length > 0 && entry.file)
      untrusted.push({ file: entry.file, ignored: stripped.ignored });
    return { ...entry, settings: stripped.settings };
  });
  const mcpJson = readProjectMcpJson(projectRoot, { trusted });
  if (mcpJson.ignored) untrusted.push(mcpJson.ignored);
  sources.sort((a, b) => SOURCE_ORDER.indexOf(a.source) - SOURCE_ORDER.indexOf(b.source));

  const merged = mergeSettings(sources, { projectRoot, home });
  warnings.push(...merged.warnings);
  for (const report of untrusted) {
    warnings.push(
      `${projectRoot} is not trusted, so ${report.file} was only partly applied; ignored: ${report.ignored.join("; ")}. ` +
        "Run `keel trust` (or start with --trust) if you trust this folder.",
    );
  }
  const mcpServers = [...merged.mcpServers];
  for (const server of mcpJson.servers)
    if (!mcpServers.some((known) => known.name === server.name)) mcpServers.push(server);

  return {
    projectRoot,
    trusted,
    sources,
    permissionContext: buildContextFromMerged(merged, projectRoot, env, warnings),
    hooks: merged.hooks,
    env: merged.env,
    sandbox: merged.sandbox,
    ...(merged.worktreesDir ? { worktreesDir: merged.worktreesDir } : {}),
    mcpServers,
    lspServers: merged.lspServers,
    mcpSettings: merged.mcpSettings,
    warnings,
    untrusted,
  };
}

function sandboxPolicySettings(sandbox: SandboxSettings): SandboxPolicySettings {
  const lists = {
    excludedCommands: sandbox.excludedCommands,
    allowedDomains: sandbox.network?.allowedDomains,
    allowWrite: sandbox.filesystem?.allowWrite,
    denyWrite: sandbox.filesystem?.denyWrite,
  };
  return {
    enabled: sandbox.enabled ?? false,
    autoAllowBashIfSandboxed: sandbox.autoAllowBashIfSandboxed ?? true,
    ...(sandbox.allowUnsandboxedCommands === false ? { allowUnsandboxedCommands: false } : {}),
    ...Object.fromEntries(Object.entries(lists).filter(([, list]) => list !== undefined && list.length > 0)),
  };
}

function buildContextFromMerged(
  merged: MergedSettings,
  projectRoot: string,
  env: NodeJS.ProcessEnv,
  warnings: string[],
): ToolPermissionContext {
  let mode: PermissionMode = merged.defaultMode?.mode ?? "default";
  if (mode === "bypassPermissions" && merged.bypassDisabledBy) {
    warnings.push(
      `bypassPermissions mode is disabled by ${merged.bypassDisabledBy}; starting in default mode`,
    );
    mode = "default";
  }
  const ruleRoots: Partial<Record<RuleSource, string>> = {};
  for (const source of [...SOURCE_ORDER, "session" as const])
    ruleRoots[source] = ruleRootFor(source, projectRoot, env);
  const missing = merged.additionalDirectories.filter((dir) => !existsSync(dir.path));
  for (const dir of missing)
    warnings.push(`additional directory ${dir.path} (from ${dir.source} settings) does not exist`);
  return deepFreeze({
    mode,
    projectRoot,
    additionalWorkingDirectories: merged.additionalDirectories.filter((dir) => dir.path !== projectRoot),
    alwaysAllowRules: merged.allow,
    alwaysDenyRules: merged.deny,
    alwaysAskRules: merged.ask,
    ruleRoots,
    isBypassPermissionsModeAvailable: merged.bypassDisabledBy === undefined,
    sandbox: sandboxPolicySettings(merged.sandbox),
  });
}
