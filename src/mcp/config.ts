// Which MCP servers a session connects to: `--mcp-config` files, settings and the project's `.mcp.json`
// (already trust-gated by the settings loader), each entry checked and `${VAR}`-expanded on its own, so
// one broken entry is reported and the others still start.
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, resolve } from "node:path";
import * as z from "zod";
import type { McpServerEntry } from "../settings/merge.ts";
import { settingsFileTooLarge } from "../settings/readSettingsFile.ts";
import { builtOnFirstUse } from "../tool/builtOnFirstUse.ts";
import { parseContext } from "../tool/parseContext.ts";
import { expandEnvDeep } from "./expandEnv.ts";
import type { McpOAuthSettings } from "./oauth/provider.ts";

export type McpTransportKind = "stdio" | "http" | "sse";

interface Common {
  /** Per tool call, in ms (default MCP_TOOL_TIMEOUT or 120 s). */
  toolTimeoutMs?: number;
  /** Connecting and listing tools, in ms (default MCP_TIMEOUT or 30 s). */
  startupTimeoutMs?: number;
}

export interface McpStdioConfig extends Common {
  type: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export interface McpRemoteConfig extends Common {
  type: "http" | "sse";
  url: string;
  headers: Record<string, string>;
  /** OAuth details for servers that need them (a pre-registered client, scopes, a fixed callback port). */
  oauth?: McpOAuthSettings;
}

export type McpServerConfig = McpStdioConfig | McpRemoteConfig;

export interface McpServerSpec {
  name: string;
  /** Where it was configured, for people: "user settings (~/.keel/settings.json)", "--mcp-config a.json". */
  origin: string;
  /** The checked config; absent when the entry is broken (see error) . */
  config?: McpServerConfig;
  /** Why the entry cannot be used, in words that say what to fix. */
  error?: string;
  disabled?: boolean;
}

/** A `--mcp-config` argument that cannot be read at all; a usage error. */
export class McpConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "McpConfigError";
  }
}

/** The two shapes of a server entry, built when a config with servers is first read. */
const entrySchemas = builtOnFirstUse(() => {
  const timeouts = {
    timeout: z.number().positive().optional(),
    startupTimeout: z.number().positive().optional(),
    disabled: z.boolean().optional(),
  };
  const stdio = z.looseObject({
    type: z.literal("stdio").optional(),
    command: z.string().min(1, "command must not be empty"),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
    ...timeouts,
  });
  const remote = z.looseObject({
    type: z.enum(["http", "streamable-http", "streamableHttp", "sse"]).optional(),
    url: z.string().min(1, "url must not be empty"),
    headers: z.record(z.string(), z.string()).optional(),
    oauth: z
      .strictObject({
        clientId: z.string().min(1).optional(),
        clientSecret: z.string().min(1).optional(),
        scopes: z.string().optional(),
        callbackPort: z.number().int().min(1).max(65_535).optional(),
        clientMetadataUrl: z.url().optional(),
      })
      .optional(),
    ...timeouts,
  });
  return { stdio, remote };
});

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message))
    .join("; ");
}

/** Checks and expands one raw entry. Never throws: problems come back as `error`. */
export function parseServerEntry(
  name: string,
  raw: unknown,
  origin: string,
  env: NodeJS.ProcessEnv = process.env,
  baseDir?: string,
): McpServerSpec {
  const fail = (error: string): McpServerSpec => ({ name, origin, error });
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    return fail("the entry must be an object with `command` (stdio) or `url` (http, sse)");
  const entry = raw as Record<string, unknown>;
  const disabled = entry.disabled === true;
  const isRemote = "url" in entry || entry.type === "http" || entry.type === "sse";
  const schemas = entrySchemas();
  const parsed = isRemote
    ? schemas.remote.safeParse(entry, parseContext())
    : schemas.stdio.safeParse(entry, parseContext());
  if (!parsed.success) return fail(`invalid config: ${describeIssues(parsed.error)}`);
  const missing = new Set<string>();
  const expanded = expandEnvDeep(parsed.data, env, missing);
  if (missing.size > 0)
    return fail(
      `environment variable${missing.size > 1 ? "s" : ""} ${[...missing].join(", ")} not set ` +
        `(referenced as \${VAR} in the config; set it, or write \${VAR:-default})`,
    );
  const common: Common = {
    ...(expanded.timeout ? { toolTimeoutMs: expanded.timeout } : {}),
    ...(expanded.startupTimeout ? { startupTimeoutMs: expanded.startupTimeout } : {}),
  };
  if (isRemote) {
    const remote = expanded as z.infer<ReturnType<typeof entrySchemas>["remote"]>;
    let url: URL;
    try {
      url = new URL(remote.url);
    } catch {
      return fail(`url "${remote.url}" is not a valid URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      return fail(`url "${remote.url}" must use http or https`);
    const config: McpRemoteConfig = {
      type: remote.type === "sse" ? "sse" : "http",
      url: url.href,
      headers: remote.headers ?? {},
      ...(remote.oauth ? { oauth: remote.oauth } : {}),
      ...common,
    };
    return { name, origin, config, ...(disabled ? { disabled } : {}) };
  }
  const stdio = expanded as z.infer<ReturnType<typeof entrySchemas>["stdio"]>;
  const config: McpStdioConfig = {
    type: "stdio",
    command: stdio.command,
    args: stdio.args ?? [],
    env: stdio.env ?? {},
    ...(stdio.cwd ? { cwd: baseDir ? resolve(baseDir, stdio.cwd) : stdio.cwd } : {}),
    ...common,
  };
  return { name, origin, config, ...(disabled ? { disabled } : {}) };
}

/** `--mcp-config`: a file path, or the JSON itself; `{"mcpServers": {...}}`. */
export function readMcpConfigArgument(
  arg: string,
  cwd: string,
): { origin: string; servers: [string, unknown][] } {
  const inline = arg.trimStart().startsWith("{");
  const path = inline ? undefined : resolve(cwd, arg);
  let text = arg;
  if (path) {
    if (!existsSync(path)) throw new McpConfigError(`--mcp-config ${arg}: file not found`);
    const tooLarge = settingsFileTooLarge(statSync(path).size);
    if (tooLarge) throw new McpConfigError(`--mcp-config ${path}: ${tooLarge}`);
    text = readFileSync(path, "utf8");
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new McpConfigError(
      `--mcp-config ${path ?? "(inline JSON)"}: invalid JSON (${(error as Error).message})`,
    );
  }
  const servers = (json as { mcpServers?: unknown } | null)?.mcpServers;
  if (servers === null || typeof servers !== "object" || Array.isArray(servers))
    throw new McpConfigError(
      `--mcp-config ${path ?? "(inline JSON)"}: expected {"mcpServers": {"<name>": {...}}}`,
    );
  return { origin: `--mcp-config ${path ?? "(inline JSON)"}`, servers: Object.entries(servers) };
}

export interface McpSettingsPart {
  mcpServers: readonly McpServerEntry[];
  mcpSettings?: { disabledMcpjsonServers?: string[] };
}

export interface CollectOptions {
  cwd: string;
  /** `--mcp-config` arguments, highest precedence first. */
  configArgs?: readonly string[];
  /** `--strict-mcp-config`: use only the `--mcp-config` servers. */
  strict?: boolean;
  env?: NodeJS.ProcessEnv;
}

function originOf(entry: McpServerEntry): string {
  const where = entry.file ? ` (${entry.file})` : "";
  if (entry.file && basename(entry.file) === ".mcp.json") return `project .mcp.json${where}`;
  return `${entry.source} settings${where}`;
}

/** Every configured server, first definition of a name winning: `--mcp-config`, then settings order. */
export function collectMcpServers(settings: McpSettingsPart, options: CollectOptions): McpServerSpec[] {
  const env = options.env ?? process.env;
  const specs: McpServerSpec[] = [];
  const seen = new Set<string>();
  const add = (spec: McpServerSpec) => {
    if (seen.has(spec.name)) return;
    seen.add(spec.name);
    specs.push(spec);
  };
  for (const arg of options.configArgs ?? []) {
    const { origin, servers } = readMcpConfigArgument(arg, options.cwd);
    for (const [name, raw] of servers) add(parseServerEntry(name, raw, origin, env, options.cwd));
  }
  if (options.strict) return specs;
  const disabledProject = new Set(settings.mcpSettings?.disabledMcpjsonServers ?? []);
  for (const entry of settings.mcpServers) {
    const spec = parseServerEntry(entry.name, entry.config, originOf(entry), env, options.cwd);
    const fromMcpJson = entry.file !== undefined && basename(entry.file) === ".mcp.json";
    add(fromMcpJson && disabledProject.has(entry.name) ? { ...spec, disabled: true } : spec);
  }
  return specs;
}
