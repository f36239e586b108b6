// `keel doctor`, the configuration: every settings file and .mcp.json read and checked on its own (a
// broken one does not hide the others), the folder's trust, the model provider, the MCP servers.
import { existsSync } from "node:fs";
import { agentSettingsFrom, resolveModelConfig } from "../../agent/config.ts";
import type { McpServerSpec } from "../../mcp/config.ts";
import { ruleContentProblem, ruleToolNameProblem } from "../../permissions/matchers.ts";
import type { LoadedSettings } from "../../settings/load.ts";
import { projectMcpJsonPath, settingsLocations } from "../../settings/locations.ts";
import { readProjectMcpJson } from "../../settings/mcpJson.ts";
import { readSettingsFile, SettingsError } from "../../settings/readSettingsFile.ts";
import { userConfigPath } from "../../settings/trust.ts";
import { errorMessage } from "../../tool/errors.ts";
import type { Tools } from "../../tool/Tool.ts";
import type { Finding } from "./checks.ts";

/** Each settings file that exists: valid, valid with warnings (typos), or broken (with file:line:col). */
export function checkSettingsFiles(projectRoot: string, env: NodeJS.ProcessEnv, tools: Tools): Finding[] {
  const findings: Finding[] = [];
  const options = {
    checkRuleContent: (name: string, content: string) => ruleContentProblem(tools, name, content),
    checkRuleToolName: (name: string) => ruleToolNameProblem(tools, name),
  };
  for (const { source, path } of settingsLocations(projectRoot, env)) {
    try {
      const read = readSettingsFile(path, options);
      if (!read) continue;
      if (read.warnings.length === 0)
        findings.push({ area: "settings", status: "ok", summary: `${path} (${source})` });
      for (const warning of read.warnings)
        findings.push({
          area: "settings",
          status: "warn",
          summary: warning,
          fix: "Correct the name; Keel ignores what it does not know.",
        });
    } catch (error) {
      if (!(error instanceof SettingsError)) throw error;
      for (const problem of error.problems)
        findings.push({
          area: "settings",
          status: "fail",
          summary: `${problem.file}:${problem.line}:${problem.column}: ${problem.path ? `${problem.path}: ` : ""}${problem.message}`,
          fix: "Fix the file (or move it away): every keel command stops on a broken settings file.",
        });
    }
  }
  const mcpJson = projectMcpJsonPath(projectRoot);
  if (existsSync(mcpJson)) {
    try {
      readProjectMcpJson(projectRoot, { trusted: true });
      findings.push({ area: "settings", status: "ok", summary: `${mcpJson} (MCP servers)` });
    } catch (error) {
      findings.push({
        area: "settings",
        status: "fail",
        summary: errorMessage(error).split("\n")[0] ?? "",
        fix: `Fix ${mcpJson}.`,
      });
    }
  }
  return findings;
}

export function checkTrust(settings: LoadedSettings, env: NodeJS.ProcessEnv): Finding[] {
  const root = settings.projectRoot;
  if (settings.trustSaved)
    return [{ area: "trust", status: "ok", summary: `${root} is trusted (kept in ${userConfigPath(env)})` }];
  if (settings.untrusted.length === 0)
    return [{ area: "trust", status: "ok", summary: `${root} is not trusted; nothing in it needs trust` }];
  return settings.untrusted.map((report) => ({
    area: "trust",
    status: "warn" as const,
    summary: `${root} is not trusted, so these parts of ${report.file} are ignored: ${report.ignored.join("; ")}`,
    fix: `If you trust this folder: keel trust ${root}`,
  }));
}

/** Which API `keel run` would use and with which key; no request is sent. */
export function checkProvider(settings: LoadedSettings, env: NodeJS.ProcessEnv): Finding[] {
  try {
    const config = resolveModelConfig(
      {},
      { ...env, ...settings.env },
      agentSettingsFrom(settings.sources as Array<{ settings: Record<string, unknown> }>),
    );
    const where = config.baseURL ? ` at ${config.baseURL}` : "";
    return [{ area: "model", status: "ok", summary: `${config.provider}${where}, model ${config.model}` }];
  } catch (error) {
    return [
      {
        area: "model",
        status: "warn",
        summary: `keel run and the terminal cannot pick a model provider: ${errorMessage(error)}`,
        fix: "Set the key (or --provider / KEEL_PROVIDER) as the message says; tools, check and mcp work without one.",
      },
    ];
  }
}

/** Connects every configured MCP server (as a session would) and reports each one. */
export async function checkMcpServers(settings: LoadedSettings, env: NodeJS.ProcessEnv): Promise<Finding[]> {
  const { collectMcpServers } = await import("../../mcp/config.ts");
  let specs: McpServerSpec[];
  try {
    specs = collectMcpServers(settings, { cwd: settings.projectRoot, configArgs: [], strict: false });
  } catch (error) {
    return [
      { area: "mcp", status: "fail", summary: errorMessage(error), fix: "Fix the MCP server configuration." },
    ];
  }
  if (specs.length === 0) return [];
  const { connectMcpServers } = await import("../../mcp/client.ts");
  const manager = await connectMcpServers(specs, { env: { ...env, ...settings.env } });
  try {
    return manager.status().map(
      (server): Finding =>
        server.state === "connected"
          ? {
              area: "mcp",
              status: "ok",
              summary: `${server.name}: connected, ${server.tools.length} tools (${server.origin})`,
            }
          : {
              area: "mcp",
              status: "fail",
              summary: `${server.name}: ${server.state}${server.error ? `: ${server.error}` : ""} (${server.target})`,
              fix: `Check the command or URL of "${server.name}" in ${server.origin}; \`keel mcp list\` shows details.`,
            },
    );
  } finally {
    await manager.close();
  }
}
