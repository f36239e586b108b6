// The transport to one configured MCP server: a child process (stdio), Streamable HTTP or legacy SSE,
// with the OAuth provider for remote servers that need one. Loaded on demand: a session without MCP
// servers never loads the SDK's client code.
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ownProcess } from "../tool/ownedProcesses.ts";
import type { McpServerConfig } from "./config.ts";
import type { KeelOAuthProvider } from "./oauth/provider.ts";

export interface TransportOptions {
  env: NodeJS.ProcessEnv;
  provider?: KeelOAuthProvider | undefined;
  onStderr?: (chunk: string) => void;
}

/** What remote transports add: finishing an authorization, ending the session (HTTP DELETE). */
export interface RemoteTransport extends Transport {
  finishAuth(authorizationCode: string): Promise<void>;
  terminateSession?(): Promise<void>;
}

export async function createClientTransport(
  config: McpServerConfig,
  options: TransportOptions,
): Promise<Transport> {
  if (config.type === "stdio") {
    const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: { ...(options.env as Record<string, string>), ...config.env },
      ...(config.cwd ? { cwd: config.cwd } : {}),
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => options.onStderr?.(chunk.toString("utf8")));
    ownWhileOpen(transport);
    return transport;
  }
  const requestInit = { headers: config.headers };
  const auth = options.provider ? { authProvider: options.provider } : {};
  if (config.type === "sse") {
    const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
    return new SSEClientTransport(new URL(config.url), { requestInit, ...auth });
  }
  const { StreamableHTTPClientTransport } = await import(
    "@modelcontextprotocol/sdk/client/streamableHttp.js"
  );
  return new StreamableHTTPClientTransport(new URL(config.url), { requestInit, ...auth });
}

/** The server's process is killed however Keel ends, from its start until the transport is closed. */
function ownWhileOpen(transport: StdioClientTransport): void {
  let disown = () => {};
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    if (transport.pid !== null) disown = ownProcess(transport.pid);
  };
  const close = transport.close.bind(transport);
  transport.close = async () => {
    await close();
    disown();
  };
}

/** Ends an HTTP session with DELETE, as the spec asks of clients that are done; bounded, never throws. */
export async function endRemoteSession(transport: Transport | undefined, timeoutMs = 2_000): Promise<void> {
  const remote = transport as RemoteTransport | undefined;
  if (!remote?.terminateSession || !remote.sessionId) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    remote.terminateSession().catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    }),
  ]);
  clearTimeout(timer);
}
