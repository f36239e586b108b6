// `keel mcp [serve]`: Keel's tools as an MCP server (stdio, or Streamable HTTP with --http).
// `keel mcp list`: the MCP servers Keel would use, their state and their tools.
// The SDK and the server code load only when a subcommand runs, so other commands do not pay for them.
import { randomBytes } from "node:crypto";
import type { Command } from "commander";
import { lspOptionsFromSettings } from "../../lsp/servers.ts";
import { stopLanguageServers } from "../../lsp/sessionServers.ts";
import { createMcpSessionContext } from "../../mcp/sessionContext.ts";
import type { PipelineServices } from "../../pipeline/services.ts";
import { errorMessage } from "../../tool/errors.ts";
import { assembleToolPool } from "../../tool/registry.ts";
import type { Tool } from "../../tool/Tool.ts";
import { CliError } from "../exitCodes.ts";
import { collect, connectConfiguredMcp, loadCliSettings, openSession, type PolicyFlags } from "../session.ts";
import { withPolicyOptions } from "./policyOptions.ts";

interface ServeFlags extends PolicyFlags {
  http?: string;
  token?: string;
  tools?: string[];
  excludeTools?: string[];
}

interface ListFlags extends PolicyFlags {
  mcpConfig?: string[];
  strictMcpConfig?: boolean;
  json?: boolean;
}

function names(values: readonly string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((value) => value.split(","))
    .map((name) => name.trim())
    .filter(Boolean);
}

/** --tools keeps only the named tools (or aliases); --exclude-tools drops them. Unknown names are errors. */
export function selectTools(
  tools: readonly Tool[],
  only: readonly string[],
  exclude: readonly string[],
): Tool[] {
  const known = (name: string) => tools.some((tool) => tool.name === name || tool.aliases?.includes(name));
  const unknown = [...only, ...exclude].filter((name) => !known(name));
  if (unknown.length > 0)
    throw new CliError(
      `unknown tool${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} (available: ${tools.map((tool) => tool.name).join(", ") || "none"})`,
    );
  const matches = (tool: Tool, list: readonly string[]) =>
    list.includes(tool.name) || (tool.aliases?.some((alias) => list.includes(alias)) ?? false);
  return tools.filter((tool) => (only.length === 0 || matches(tool, only)) && !matches(tool, exclude));
}

function log(line: string): void {
  process.stderr.write(`keel mcp: ${line}\n`);
}

export interface McpCommandOptions {
  /** Tools served beside the built-ins (tests serve small tools of their own this way). */
  extraTools?: readonly Tool[];
}

async function serve(flags: ServeFlags, options: McpCommandOptions): Promise<void> {
  const session = openSession(flags);
  const { settings } = session;
  const pool = options.extraTools?.length
    ? assembleToolPool(session.tools, options.extraTools, settings.permissionContext)
    : session.tools;
  // Tools that steer Keel's own agent loop have nothing to steer behind an MCP client.
  const servable = pool.filter((tool) => tool.requiresAgentLoop !== true);
  const tools = selectTools(servable, names(flags.tools), names(flags.excludeTools));
  // Hooks, the audit log and (none) prompter come with the session, as on every other surface.
  const services: PipelineServices = session.services;
  const createSession = () => {
    const lsp = lspOptionsFromSettings(settings, { startOnEdit: true });
    const context = createMcpSessionContext(tools, settings.permissionContext, lsp);
    // Both transports abort the session's controller when its client goes: its language servers stop then.
    context.abortController.signal.addEventListener(
      "abort",
      () => void stopLanguageServers(context.options.sessionId),
      { once: true },
    );
    return { tools, context, services, log };
  };
  process.on("unhandledRejection", (reason) =>
    log(`unhandled error (the server goes on): ${errorMessage(reason)}`),
  );
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  // Whatever a tool left running (timers, watchers) must not keep a server without a client alive.
  const exitSoon = () => setTimeout(() => process.exit(), 2_000).unref();
  if (!flags.http) {
    const { redirectConsoleToStderr, serveStdio } = await import("../../mcp/serveStdio.ts");
    redirectConsoleToStderr();
    await serveStdio(createSession(), { signal: stop.signal });
    exitSoon();
    return;
  }
  const { parseHttpAddress, serveHttp } = await import("../../mcp/serveHttp.ts");
  let address: { host: string; port: number };
  try {
    address = parseHttpAddress(flags.http);
  } catch (error) {
    throw new CliError(errorMessage(error));
  }
  const given = flags.token ?? process.env.KEEL_MCP_TOKEN;
  const token = given || randomBytes(24).toString("base64url");
  const running = await serveHttp({ ...address, token, createSession, log }).catch((error: unknown) => {
    throw new CliError(`cannot listen on ${flags.http}: ${errorMessage(error)}`);
  });
  if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(address.host))
    log(`warning: listening on ${address.host}, reachable from other machines (the token is the only guard)`);
  log(`serving ${tools.length} tools at ${running.url}`);
  log(given ? "token: from --token / KEEL_MCP_TOKEN" : `token: ${token}`);
  await new Promise<void>((resolve) =>
    stop.signal.addEventListener("abort", () => resolve(), { once: true }),
  );
  await running.close();
  exitSoon();
}

async function list(flags: ListFlags): Promise<void> {
  const settings = loadCliSettings(flags);
  const { connectMcpServers } = await import("../../mcp/client.ts");
  // With none configured, an empty manager still reports (and --json still prints) the empty list.
  const manager = (await connectConfiguredMcp(settings, flags)) ?? (await connectMcpServers([]));
  try {
    const status = manager.status();
    if (flags.json) {
      process.stdout.write(
        `${JSON.stringify({ servers: status, warnings: [...settings.warnings, ...manager.warnings] }, null, 2)}\n`,
      );
      return;
    }
    for (const warning of [...settings.warnings, ...manager.warnings]) log(warning);
    if (status.length === 0) {
      process.stdout.write(
        "No MCP servers configured (settings mcpServers, .mcp.json in a trusted folder, or --mcp-config).\n",
      );
      return;
    }
    for (const server of status) {
      const state = server.state === "connected" ? `connected, ${server.tools.length} tools` : server.state;
      process.stdout.write(
        `${server.name}  ${server.transport}  ${server.target}  [${state}]\n  from ${server.origin}\n`,
      );
      if (server.error) process.stdout.write(`  error: ${server.error}\n`);
      for (const tool of server.tools) {
        const flagsText = tool.readOnly ? " (read-only)" : tool.destructive ? " (may change or delete)" : "";
        process.stdout.write(
          `  ${tool.name}${flagsText}${tool.description ? ` - ${tool.description}` : ""}\n`,
        );
      }
    }
  } finally {
    await manager.close();
  }
}

export function register(program: Command, options: McpCommandOptions = {}): void {
  const mcp = program
    .command("mcp")
    .description(
      "MCP both ways: serve Keel's tools to MCP clients (default), or list the MCP servers Keel uses",
    );
  withPolicyOptions(
    mcp
      .command("serve", { isDefault: true })
      .description(
        "Serve Keel's tools over MCP, every call through the governed pipeline (stdio by default)",
      ),
  )
    .option(
      "--http <[host:]port>",
      "serve Streamable HTTP at http://host:port/mcp instead (host default 127.0.0.1)",
    )
    .option(
      "--token <token>",
      "bearer token HTTP clients must send (default: KEEL_MCP_TOKEN, else generated and printed)",
    )
    .option("--tools <names>", "serve only these tools (comma-separated, repeatable)", collect)
    .option("--exclude-tools <names>", "do not serve these tools (comma-separated, repeatable)", collect)
    .action((flags: ServeFlags) => serve(flags, options));
  withPolicyOptions(
    mcp.command("list").description("Connect to the configured MCP servers and show their state and tools"),
  )
    .option(
      "--mcp-config <file>",
      'MCP servers from this file or JSON ({"mcpServers": {...}}; repeatable)',
      collect,
    )
    .option("--strict-mcp-config", "use only the servers from --mcp-config")
    .option("--json", "print JSON")
    .action((flags: ListFlags) => list(flags));
}
