// One CLI session: settings from every source plus the command line, the tool pool, the services.
import { JsonlAuditSink } from "../audit/jsonlSink.ts";
import { lspOptionsFromSettings } from "../lsp/servers.ts";
import type { McpClientManager } from "../mcp/client.ts";
import type { McpServerSpec } from "../mcp/config.ts";
import type { ConnectionOptions } from "../mcp/connection.ts";
import { parsePermissionMode } from "../permissions/modes.ts";
import type { PermissionMode } from "../permissions/types.ts";
import type { PipelineServices, Prompter } from "../pipeline/services.ts";
import { type CliRule, CliRuleError, type LoadedSettings, loadSettings } from "../settings/load.ts";
import { SettingsError } from "../settings/readSettingsFile.ts";
import { initBashParser } from "../shell/parse.ts";
import type { ToolUseContext } from "../tool/context.ts";
import { createToolUseContext } from "../tool/createContext.ts";
import { assembleToolPool } from "../tool/registry.ts";
import { releaseSession } from "../tool/sessionEnd.ts";
import type { Tool, Tools } from "../tool/Tool.ts";
import { builtinRuleNames, loadAllBuiltinTools, loadToolsFor } from "../tools/catalog.ts";
import { CliError } from "./exitCodes.ts";
import { projectDirFrom } from "./projectDir.ts";

/** A rule from a Claude Code style list flag, with the flag as typed. */
export interface LabeledRule {
  flag: string;
  rule: string;
}

export interface PolicyFlags {
  cwd?: string;
  mode?: string;
  /** `--permission-mode` (Claude Code's name for --mode). */
  permissionMode?: string;
  /** `--dangerously-skip-permissions`: bypassPermissions mode. */
  dangerouslySkipPermissions?: boolean;
  /** `--allowedTools` / `--allowed-tools` values (each may hold several rules). */
  allowedTools?: LabeledRule[];
  /** `--disallowedTools` / `--disallowed-tools` values. */
  disallowedTools?: LabeledRule[];
  allow?: string[];
  deny?: string[];
  ask?: string[];
  addDir?: string[];
  trust?: boolean;
  settings?: string;
  /** `--mcp-config`: MCP server config files or inline JSON, highest precedence first. */
  mcpConfig?: string[];
  strictMcpConfig?: boolean;
}

export interface CliSession {
  context: ToolUseContext;
  services: PipelineServices;
  settings: LoadedSettings;
  tools: Tool[];
  /** The built-in tools loaded for the session, before rules hid any (all, or the one `forTool` named). */
  builtins: Tool[];
  /** Releases what the session holds open (the terminal prompter's input). */
  close(): void;
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * Claude Code's list form: `"Read,Bash(git log:*)"` or `"Read Edit"` hold several rules. Commas and
 * spaces inside a rule's parentheses belong to the rule.
 */
export function splitRuleList(value: string): string[] {
  const rules: string[] = [];
  let depth = 0;
  let current = "";
  for (let i = 0; i < value.length; i++) {
    const char = value[i] as string;
    if (char === "\\" && i + 1 < value.length) {
      current += char + value[++i];
      continue;
    }
    if (char === "(") depth++;
    else if (char === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (char === "," || /\s/.test(char))) {
      if (current.trim()) rules.push(current.trim());
      current = "";
      continue;
    }
    current += char;
  }
  if (current.trim()) rules.push(current.trim());
  return rules;
}

/** The rules of every rule flag, each with the flag it was typed under. */
function cliRulesFrom(flags: PolicyFlags): CliRule[] {
  const plain = (behavior: CliRule["behavior"], flag: string, rules: string[] | undefined) =>
    (rules ?? []).map((rule) => ({ behavior, rule, flag }));
  const listed = (behavior: CliRule["behavior"], values: LabeledRule[] | undefined) =>
    (values ?? []).flatMap(({ flag, rule }) =>
      splitRuleList(rule).map((one) => ({ behavior, rule: one, flag })),
    );
  return [
    ...plain("allow", "--allow", flags.allow),
    ...listed("allow", flags.allowedTools),
    ...plain("deny", "--deny", flags.deny),
    ...listed("deny", flags.disallowedTools),
    ...plain("ask", "--ask", flags.ask),
  ];
}

/** The one permission mode the flags ask for; two flags asking for different modes is an error. */
function modeFrom(flags: PolicyFlags): PermissionMode | undefined {
  const asked: Array<{ flag: string; mode: string }> = [];
  if (flags.mode) asked.push({ flag: "--mode", mode: flags.mode });
  if (flags.permissionMode) asked.push({ flag: "--permission-mode", mode: flags.permissionMode });
  if (flags.dangerouslySkipPermissions)
    asked.push({ flag: "--dangerously-skip-permissions", mode: "bypassPermissions" });
  for (const { flag, mode } of asked) {
    try {
      parsePermissionMode(mode);
    } catch (error) {
      throw new CliError(`${flag}: ${(error as Error).message}`);
    }
  }
  const first = asked[0];
  const other = asked.find((entry) => entry.mode !== first?.mode);
  if (first && other)
    throw new CliError(
      `${first.flag} ${first.mode} and ${other.flag} ${other.mode} disagree; give one mode.`,
    );
  return first ? parsePermissionMode(first.mode) : undefined;
}

/**
 * The settings a command runs under. `tools` check the rules' specifiers; without them only the rule
 * syntax and the tool names are checked (what reports and `keel mcp list` need).
 */
export function loadCliSettings(flags: PolicyFlags, tools?: Tools): LoadedSettings {
  const cwd = projectDirFrom(flags);
  const mode = modeFrom(flags);
  try {
    return loadSettings({
      cwd,
      ...(tools ? { tools } : {}),
      ruleNames: builtinRuleNames(),
      cli: {
        ...(mode ? { permissionMode: mode } : {}),
        rules: cliRulesFrom(flags),
        addDirs: flags.addDir ?? [],
        ...(flags.trust ? { trust: true } : {}),
        ...(flags.settings ? { settingsFile: flags.settings } : {}),
      },
    });
  } catch (error) {
    if (error instanceof SettingsError || error instanceof CliRuleError) throw new CliError(error.message);
    throw error;
  }
}

export interface OpenSessionOptions {
  extraServices?: PipelineServices;
  /**
   * Ask a person on the terminal when a call needs approval. Off by default: servers speaking a
   * protocol on stdio must never read it, and with no prompter every ask is refused with the reason.
   */
  terminalPrompter?: boolean;
  /** Load the Bash grammar now, in the background (the agent: a model's first turn takes longer). */
  warmBashParser?: boolean;
  /**
   * The session serves one call of this tool (`keel check`, `keel tool`): only its module is loaded
   * (see tools/catalog.ts), and rule specifiers are checked for it alone.
   */
  forTool?: string;
}

/** Settings, the tool pool and the services every surface shares: hooks, the audit log, a prompter. */
export async function openSession(flags: PolicyFlags, options: OpenSessionOptions = {}): Promise<CliSession> {
  const builtins = await (options.forTool === undefined
    ? loadAllBuiltinTools()
    : loadToolsFor(options.forTool));
  const settings = loadCliSettings(flags, builtins);
  for (const warning of settings.warnings) process.stderr.write(`keel: ${warning}\n`);
  // Parsing Bash needs the grammar. The agent loads it while the model thinks, so the first command is
  // judged in time; elsewhere the first Bash call loads it, and other calls start without its ~60 ms.
  if (options.warmBashParser) initBashParser().catch(() => {});
  const tools = assembleToolPool(builtins, [], settings.permissionContext);
  const interactive = Boolean(process.stdin.isTTY && process.stderr.isTTY);
  const context = createToolUseContext({
    tools,
    permissionContext: settings.permissionContext,
    isNonInteractiveSession: !interactive,
    // One-shot commands end right after their call: a server started by an edit would be wasted.
    lsp: lspOptionsFromSettings(settings, { startOnFileUse: false }),
    ...(settings.worktreesDir ? { worktreesDir: settings.worktreesDir } : {}),
  });
  // The prompters (readline) and the hook runner (child processes) load only when a session has them.
  const prompting =
    options.terminalPrompter && interactive ? await import("../permissions/prompters/index.ts") : undefined;
  const terminal = prompting?.openTerminal();
  const prompter = terminal
    ? prompting?.choosePrompter({ terminal, persistRules: settings.trustSaved })
    : undefined;
  const hookRunner =
    settings.hooks.length > 0
      ? new (await import("../hooks/runner.ts")).HookRunner({
          hooks: settings.hooks,
          projectDir: settings.projectRoot,
          settingsEnv: settings.env,
        })
      : undefined;
  const services: PipelineServices = {
    audit: new JsonlAuditSink({
      onError: (message) => process.stderr.write(`keel: ${message}\n`),
      retention: settings.auditRetention,
    }),
    ...(hookRunner ? { hooks: hookRunner } : {}),
    ...(prompter ? { prompter } : {}),
    ...options.extraServices,
  };
  const close = () => {
    if (prompter && "close" in prompter && typeof prompter.close === "function") prompter.close();
    terminal?.close();
    void releaseSession(context.options.sessionId);
  };
  return { context, services, settings, tools, builtins, close };
}

/** The MCP servers the settings, .mcp.json and --mcp-config name; a broken configuration is a CliError. */
export async function configuredMcpServers(
  settings: LoadedSettings,
  flags: Pick<PolicyFlags, "mcpConfig" | "strictMcpConfig">,
): Promise<McpServerSpec[]> {
  const { collectMcpServers, McpConfigError } = await import("../mcp/config.ts");
  try {
    return collectMcpServers(settings, {
      cwd: settings.projectRoot,
      configArgs: flags.mcpConfig ?? [],
      strict: flags.strictMcpConfig ?? false,
    });
  } catch (error) {
    if (error instanceof McpConfigError) throw new CliError(error.message);
    throw error;
  }
}

/** Connects the configured MCP servers (settings, trusted `.mcp.json`, `--mcp-config`); none configured: undefined. */
export async function connectConfiguredMcp(
  settings: LoadedSettings,
  flags: Pick<PolicyFlags, "mcpConfig" | "strictMcpConfig">,
  options: ConnectionOptions = {},
): Promise<McpClientManager | undefined> {
  const specs = await configuredMcpServers(settings, flags);
  if (specs.length === 0) return undefined;
  const { connectMcpServers } = await import("../mcp/client.ts");
  return connectMcpServers(specs, { env: { ...process.env, ...settings.env }, ...options });
}

/**
 * Adds the configured MCP servers' tools to a session. A server that fails is reported and the
 * session goes on without it. Forms the servers ask the person to fill in go to `prompter` (the
 * terminal UI's), else to the session's own prompter; with neither they are declined.
 */
export async function connectSessionMcp(
  session: CliSession,
  flags: PolicyFlags,
  options: { prompter?: Prompter | undefined } = {},
): Promise<CliSession> {
  const elicitation = {
    prompter: options.prompter ?? session.services.prompter,
    log: (line: string) => process.stderr.write(`keel: ${line}\n`),
  };
  const manager = await connectConfiguredMcp(session.settings, flags, { elicitation });
  if (!manager) return session;
  const { withMcpClients } = await import("../mcp/client.ts");
  for (const server of manager.status()) {
    if (server.state === "failed" || server.state === "disconnected")
      process.stderr.write(
        `keel: MCP server "${server.name}" could not be used: ${server.error ?? server.state}\n`,
      );
  }
  for (const warning of manager.warnings) process.stderr.write(`keel: ${warning}\n`);
  const tools = assembleToolPool(session.builtins, manager.tools(), session.settings.permissionContext);
  const base = withMcpClients(session.context, manager);
  const context = { ...base, options: { ...base.options, tools } };
  return {
    ...session,
    context,
    tools,
    close: () => {
      session.close();
      void manager.close();
    },
  };
}

/**
 * On a terminal, asks once whether to trust a project whose own files want to loosen policy (allow
 * rules, hooks, mode, env, MCP servers). Without a terminal, or on "no", those parts stay ignored.
 */
export async function offerTrust(flags: PolicyFlags): Promise<void> {
  if (flags.trust || !(process.stdin.isTTY && process.stderr.isTTY)) return;
  const settings = loadCliSettings(flags);
  if (settings.trusted || settings.untrusted.length === 0) return;
  const { askToTrustFolder } = await import("../settings/trustPrompt.ts");
  await askToTrustFolder({
    projectRoot: settings.projectRoot,
    untrusted: settings.untrusted,
    input: process.stdin,
    output: process.stderr,
  });
}
