// `keel mcp [serve]`: Keel's tools as an MCP server, over stdio or Streamable HTTP (--http).
import { randomBytes } from "node:crypto";
import { lspOptionsFromSettings } from "../../lsp/servers.ts";
import { createMcpSessionContext } from "../../mcp/sessionContext.ts";
import type { PipelineServices } from "../../pipeline/services.ts";
import { errorMessage } from "../../tool/errors.ts";
import { assembleToolPool } from "../../tool/registry.ts";
import { releaseSession } from "../../tool/sessionEnd.ts";
import { onStopSignal } from "../../tool/stopSignals.ts";
import type { Tool } from "../../tool/Tool.ts";
import { CliError } from "../exitCodes.ts";
import { openSession, type PolicyFlags } from "../session.ts";

export interface ServeFlags extends PolicyFlags {
  http?: string;
  token?: string;
  /** commander's negation of --no-auth: false when given. */
  auth?: boolean;
  sessionTimeout?: string;
  maxSessions?: string;
  tools?: string[];
  excludeTools?: string[];
}

export interface McpCommandOptions {
  /** Tools served beside the built-ins (tests serve small tools of their own this way). */
  extraTools?: readonly Tool[];
}

export function log(line: string): void {
  process.stderr.write(`keel mcp: ${line}\n`);
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

function positiveInteger(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new CliError(`${flag} expects a whole number of at least 1 (got "${value}")`);
  return number;
}

export async function serve(flags: ServeFlags, options: McpCommandOptions): Promise<void> {
  const noAuth = flags.auth === false;
  if (noAuth && !flags.http) throw new CliError("--no-auth applies to --http only (stdio has no token)");
  if (noAuth && flags.token) throw new CliError("--no-auth and --token contradict each other; give one");
  const session = await openSession(flags, { surface: "mcp" });
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
    const lsp = lspOptionsFromSettings(settings, { startOnFileUse: true });
    const context = createMcpSessionContext(tools, settings.permissionContext, lsp);
    // Both transports abort the session's controller when its client goes: what the session holds
    // (language servers, background commands, saved results) is released then.
    context.abortController.signal.addEventListener(
      "abort",
      () => void releaseSession(context.options.sessionId),
      { once: true },
    );
    return { tools, context, services, log };
  };
  process.on("unhandledRejection", (reason) =>
    log(`unhandled error (the server goes on): ${errorMessage(reason)}`),
  );
  // SIGINT, SIGTERM, SIGHUP: the sessions end (their calls are aborted, their processes killed), and the
  // command line exits as that signal says (tool/stopSignals.ts) as soon as they have.
  const stop = new AbortController();
  onStopSignal(() => stop.abort());
  // Whatever a tool left running (timers, watchers) must not keep a server without a client alive.
  const exitSoon = () => setTimeout(() => process.exit(), 2_000).unref();
  if (!flags.http) {
    const { redirectConsoleToStderr, serveStdio } = await import("../../mcp/serveStdio.ts");
    redirectConsoleToStderr();
    await serveStdio(createSession(), { signal: stop.signal });
    exitSoon();
    return;
  }
  const [{ isLoopbackHost, parseHttpAddress, serveHttp }, { parseDuration }] = await Promise.all([
    import("../../mcp/serveHttp.ts"),
    import("../../mcp/httpSessions.ts"),
  ]);
  let address: { host: string; port: number };
  let sessionIdleMs: number | undefined;
  try {
    address = parseHttpAddress(flags.http);
    sessionIdleMs = flags.sessionTimeout === undefined ? undefined : parseDuration(flags.sessionTimeout);
  } catch (error) {
    throw new CliError(errorMessage(error));
  }
  const maxSessions = positiveInteger(flags.maxSessions, "--max-sessions");
  const loopback = isLoopbackHost(address.host);
  if (noAuth && !loopback)
    throw new CliError(
      `--no-auth is allowed only on a loopback address (127.0.0.1, localhost, ::1), not ${address.host}: anyone who can reach it could run tools`,
    );
  const given = flags.token ?? process.env.KEEL_MCP_TOKEN;
  const token = noAuth ? undefined : given || randomBytes(24).toString("base64url");
  const running = await serveHttp({
    ...address,
    token,
    createSession,
    log,
    ...(sessionIdleMs === undefined ? {} : { sessionIdleMs }),
    ...(maxSessions === undefined ? {} : { maxSessions }),
  }).catch((error: unknown) => {
    throw new CliError(`cannot listen on ${flags.http}: ${errorMessage(error)}`);
  });
  if (!loopback)
    log(`warning: listening on ${address.host}, reachable from other machines (the token is the only guard)`);
  log(`serving ${tools.length} tools at ${running.url}`);
  if (noAuth)
    log(
      "warning: --no-auth: no token is required, so any program on this machine (any local user, any process) can run these tools",
    );
  else log(given ? "token: from --token / KEEL_MCP_TOKEN" : `token: ${token}`);
  await new Promise<void>((resolve) =>
    stop.signal.addEventListener("abort", () => resolve(), { once: true }),
  );
  await running.close();
  exitSoon();
}
