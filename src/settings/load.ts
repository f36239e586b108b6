// Loading a session's settings: every source read and checked, the project's loosening parts held back
// until the folder is trusted, the rest merged into a permission context, hooks, env and MCP data.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { type AuditRetention, auditRetention } from "../audit/retention.ts";
import type { ConfiguredHook } from "../hooks/config.ts";
import type { LspServerEntry } from "../lsp/servers.ts";
import { ruleContentProblem, ruleToolNameProblem } from "../permissions/matchers.ts";
import { parseRuleValue } from "../permissions/rules.ts";
import type { PermissionMode, RuleBehavior, RuleSource } from "../permissions/types.ts";
import { confinementAvailability, unconfinedModeNotice } from "../shell/sandbox/confinementAvailability.ts";
import {
  callerEnvironment,
  deepFreeze,
  type SandboxPolicySettings,
  type ToolPermissionContext,
} from "../tool/context.ts";
import type { Tools } from "../tool/Tool.ts";
import { isKeelGuardHook } from "./keelGuardHook.ts";
import { ruleRootFor, settingsLocations, userHomeDir } from "./locations.ts";
import { readProjectMcpJson } from "./mcpJson.ts";
import { type McpServerEntry, type MergedSettings, mergeSettings, type SourceSettings } from "./merge.ts";
import { type ReadSettingsOptions, readSettingsFile, SettingsError } from "./readSettingsFile.ts";
import type { RemoteAgentsSettings, SandboxSettings, SettingsFile } from "./schema.ts";
import { isFolderTrusted } from "./trust.ts";
import { stripLooseningParts } from "./untrusted.ts";

/** A rule typed on the command line, with the flag it came under (errors name that flag). */
export interface CliRule {
  behavior: RuleBehavior;
  rule: string;
  flag: string;
}

export interface CliSettingsFlags {
  permissionMode?: PermissionMode;
  allowedTools?: readonly string[];
  disallowedTools?: readonly string[];
  askTools?: readonly string[];
  /** More rules, each with the flag it was typed under. */
  rules?: readonly CliRule[];
  addDirs?: readonly string[];
  /** `--trust`: treat the project folder as trusted for this load only (nothing is remembered). */
  trust?: boolean;
  /** `--settings <file>`: one more settings file, read with CLI precedence. */
  settingsFile?: string;
}

/** A rule given on the command line is malformed; the message names the flag as typed. */
export class CliRuleError extends Error {
  readonly code = "flag_invalid";
  constructor(message: string) {
    super(message);
    this.name = "CliRuleError";
  }
}

export interface LoadSettingsOptions {
  cwd: string;
  cli?: CliSettingsFlags;
  env?: NodeJS.ProcessEnv;
  /** The session's tools: rule specifiers are checked by the matcher of the tool they name. */
  tools?: Tools;
  /**
   * Every tool name rules may use, when `tools` holds only some tools (a one-call session): rules naming
   * the others are not unknown, and their specifiers are checked where those tools are loaded.
   */
  ruleNames?: ReadonlySet<string>;
  /**
   * Whether Bash calls can run confined (context.sandbox.confinement). Absent: probed under the
   * environment's PATH (once per process). False where Keel does not run the commands (`keel hook`).
   */
  confinement?: boolean;
}

export interface UntrustedReport {
  file: string;
  ignored: string[];
}

export interface LoadedSettings {
  projectRoot: string;
  /** The project's own loosening parts apply: the folder is trusted, or `--trust` was given. */
  trusted: boolean;
  /** Trust is remembered for the folder (`keel trust`, the terminal's question), not just `--trust`. */
  trustSaved: boolean;
  /** What was applied, highest precedence first (project parts already held back when untrusted). */
  sources: SourceSettings[];
  permissionContext: ToolPermissionContext;
  hooks: ConfiguredHook[];
  env: Record<string, string>;
  sandbox: SandboxSettings;
  /** Where EnterWorktree creates worktrees (settings `worktree.directory`), when set. */
  worktreesDir?: string;
  /** `agents.remote` (remote/config.ts turns it into a queue), with the file its queue came from. */
  remoteAgents: RemoteAgentsSettings & { from?: string };
  /** How much of the audit log is kept (settings `audit.maxSizeMB`, `audit.maxAgeDays`, or the defaults). */
  auditRetention: AuditRetention;
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

function cliRules(cli: CliSettingsFlags): CliRule[] {
  const plain = (behavior: RuleBehavior, flag: string, rules: readonly string[] | undefined) =>
    (rules ?? []).map((rule) => ({ behavior, rule, flag }));
  return [
    ...plain("allow", "allowedTools", cli.allowedTools),
    ...plain("deny", "disallowedTools", cli.disallowedTools),
    ...plain("ask", "askTools", cli.askTools),
    ...(cli.rules ?? []),
  ];
}

function cliSettings(cli: CliSettingsFlags): SettingsFile {
  const permissions: NonNullable<SettingsFile["permissions"]> = {};
  const rules = cliRules(cli);
  for (const behavior of ["allow", "deny", "ask"] as const) {
    const list = rules.filter((entry) => entry.behavior === behavior).map((entry) => entry.rule);
    if (list.length > 0) permissions[behavior] = list;
  }
  if (cli.addDirs?.length) permissions.additionalDirectories = [...cli.addDirs];
  if (cli.permissionMode) permissions.defaultMode = cli.permissionMode;
  return { permissions };
}

/**
 * Command-line rules: a malformed one stops the command (CliRuleError naming the flag as typed); one
 * naming no tool, or with a specifier its tool finds odd, is a warning under that flag.
 */
function checkCliRules(
  cli: CliSettingsFlags,
  tools: Tools | undefined,
  ruleNames: ReadonlySet<string> | undefined,
  warnings: string[],
): void {
  const problems: string[] = [];
  for (const { rule, flag } of cliRules(cli)) {
    let value: ReturnType<typeof parseRuleValue>;
    try {
      value = parseRuleValue(rule);
    } catch (error) {
      problems.push(`${flag}: ${(error as Error).message}`);
      continue;
    }
    if (!tools) continue;
    const odd =
      ruleToolNameProblem(tools, value.toolName, ruleNames) ??
      (value.ruleContent === undefined
        ? undefined
        : ruleContentProblem(tools, value.toolName, value.ruleContent));
    if (odd) warnings.push(`${flag} "${rule}": ${odd}`);
  }
  if (problems.length > 0)
    throw new CliRuleError(
      `${problems.join("\n")}${problems.length === 1 ? ". " : "\n"}Write each rule as Tool or Tool(specifier), e.g. 'Read' or 'Bash(npm test:*)'.`,
    );
}

/** Reads every source. Throws SettingsError (file:line:col) on any broken file. */
export function loadSettings(options: LoadSettingsOptions): LoadedSettings {
  const env = options.env ?? process.env;
  const cli = options.cli ?? {};
  const projectRoot = resolve(options.cwd);
  const home = userHomeDir(env);
  const tools = options.tools;
  const warnings: string[] = [];
  const ruleNames = options.ruleNames;
  checkCliRules(cli, tools, ruleNames, warnings);
  const readOptions: ReadSettingsOptions = tools
    ? {
        checkRuleContent: (name, content) => ruleContentProblem(tools, name, content),
        checkRuleToolName: (name) => ruleToolNameProblem(tools, name, ruleNames),
      }
    : {};

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
      warnings.push(...read.warnings);
      raw.push({ source: "cliArg", file: path, settings: read.settings });
    } catch (error) {
      if (error instanceof SettingsError) problems.push(error);
      else throw error;
    }
  }
  if (problems.length > 0) throw new SettingsError(problems.flatMap((problem) => problem.problems));
  raw.push({ source: "cliArg", settings: cliSettings(cli) });

  // --trust holds for this command only; `keel trust` and the terminal's question remember trust.
  const trustSaved = isFolderTrusted(projectRoot, env);
  const trusted = trustSaved || cli.trust === true;

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
        "Run `keel trust` if you trust this folder (or pass --trust for one command).",
    );
  }
  const mcpServers = [...merged.mcpServers];
  for (const server of mcpJson.servers)
    if (!mcpServers.some((known) => known.name === server.name)) mcpServers.push(server);

  return {
    projectRoot,
    trusted,
    trustSaved,
    sources,
    permissionContext: buildContextFromMerged(merged, projectRoot, env, warnings, options.confinement),
    // Keel's own guard entries (keel hook install claude-code) decide Claude Code's calls, not Keel's.
    hooks: merged.hooks.filter((hook) => !isKeelGuardHook(hook)),
    env: merged.env,
    sandbox: merged.sandbox,
    ...(merged.worktreesDir ? { worktreesDir: merged.worktreesDir } : {}),
    remoteAgents: merged.remoteAgents,
    auditRetention: auditRetention(merged.audit),
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

/** Modes that approve Bash calls nobody asked about, where whether they can run confined matters at once. */
const APPROVING_MODES: ReadonlySet<PermissionMode> = new Set(["bypassPermissions", "acceptEdits", "auto"]);

function buildContextFromMerged(
  merged: MergedSettings,
  projectRoot: string,
  env: NodeJS.ProcessEnv,
  warnings: string[],
  given: boolean | undefined,
): ToolPermissionContext {
  let mode: PermissionMode = merged.defaultMode?.mode ?? "default";
  if (mode === "bypassPermissions" && merged.bypassDisabledBy) {
    warnings.push(
      `bypassPermissions mode is disabled by ${merged.bypassDisabledBy}; starting in default mode`,
    );
    mode = "default";
  }
  // Probed here only for a mode that approves Bash calls, to tell the person at once (unless the caller
  // knows: `keel hook`, where the agent runs the commands). Otherwise found out when first needed.
  const availability =
    given === undefined && APPROVING_MODES.has(mode) ? confinementAvailability(env) : undefined;
  const confinement = given ?? availability?.available;
  const notice =
    availability?.available === false ? unconfinedModeNotice(mode, availability.reason) : undefined;
  if (notice) warnings.push(notice);
  const ruleRoots: Partial<Record<RuleSource, string>> = {};
  for (const source of [...SOURCE_ORDER, "session" as const])
    ruleRoots[source] = ruleRootFor(source, projectRoot, env);
  const missing = merged.additionalDirectories.filter((dir) => !existsSync(dir.path));
  for (const dir of missing)
    warnings.push(`additional directory ${dir.path} (from ${dir.source} settings) does not exist`);
  return deepFreeze({
    caller: callerEnvironment(env),
    mode,
    projectRoot,
    additionalWorkingDirectories: merged.additionalDirectories.filter((dir) => dir.path !== projectRoot),
    alwaysAllowRules: merged.allow,
    alwaysDenyRules: merged.deny,
    alwaysAskRules: merged.ask,
    ruleRoots,
    isBypassPermissionsModeAvailable: merged.bypassDisabledBy === undefined,
    sandbox: {
      ...sandboxPolicySettings(merged.sandbox),
      ...(confinement === undefined ? {} : { confinement }),
    },
  });
}
