// `keel mcp login <server>`: OAuth for a remote MCP server (discovery, registration, PKCE and the
// loopback redirect are done by the MCP SDK and src/mcp/oauth); the tokens go to ~/.keel/mcp-oauth.json
// (0600) and are refreshed when they expire. `keel mcp logout <server>` forgets them.
import { spawn } from "node:child_process";
import type { McpRemoteConfig, McpServerSpec } from "../../mcp/config.ts";
import { CliError } from "../exitCodes.ts";
import { processIO } from "../io.ts";
import { configuredMcpServers, loadCliSettings, type PolicyFlags } from "../session.ts";
import { log } from "./mcpServe.ts";

export interface LoginFlags extends PolicyFlags {
  mcpConfig?: string[];
  strictMcpConfig?: boolean;
  /** commander's negation of --no-browser. */
  browser?: boolean;
}

async function remoteServer(
  name: string,
  flags: LoginFlags,
): Promise<McpServerSpec & { config: McpRemoteConfig }> {
  const specs = await configuredMcpServers(loadCliSettings(flags, processIO()), flags);
  const spec = specs.find((candidate) => candidate.name === name);
  if (!spec)
    throw new CliError(
      `no MCP server named "${name}" (configured: ${specs.map((s) => s.name).join(", ") || "none"}; see keel mcp list)`,
    );
  if (spec.error) throw new CliError(`MCP server "${name}" is misconfigured: ${spec.error}`);
  if (!spec.config || spec.config.type === "stdio")
    throw new CliError(
      `MCP server "${name}" runs as a local command; only remote (http, sse) servers use a login`,
    );
  return spec as McpServerSpec & { config: McpRemoteConfig };
}

/** Best effort: the person's browser, where there is one; the URL is printed either way. */
function openBrowser(url: string): void {
  const command =
    process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  try {
    const child = spawn(command, [url], { stdio: "ignore", detached: true });
    child.on("error", () => {});
    child.unref();
  } catch {
    // No browser here: the printed URL is the way.
  }
}

export async function login(name: string, flags: LoginFlags): Promise<void> {
  const spec = await remoteServer(name, flags);
  const [{ McpConnection }, { oauthStorePath }] = await Promise.all([
    import("../../mcp/connection.ts"),
    import("../../mcp/oauth/store.ts"),
  ]);
  let asked = false;
  const connection = new McpConnection(
    { ...spec, config: { ...spec.config, startupTimeoutMs: spec.config.startupTimeoutMs ?? 5 * 60_000 } },
    {
      authorize: async (url) => {
        asked = true;
        log(
          `to log in to "${name}", open this URL in a browser (waiting for it to come back):\n\n  ${url.href}\n`,
        );
        if (flags.browser !== false) openBrowser(url.href);
      },
    },
  );
  try {
    await connection.connect();
    if (connection.state !== "connected") {
      const reason = (connection.error ?? connection.state).replace(/^the OAuth login failed: /, "");
      throw new CliError(`login to "${name}" failed: ${reason}`, 1);
    }
    log(
      asked
        ? `logged in to "${name}" (${connection.tools.length} tools); tokens saved in ${oauthStorePath()}`
        : `"${name}" did not ask for a login (it answered without one); nothing was stored`,
    );
  } finally {
    await connection.close();
  }
}

export async function logout(name: string, flags: LoginFlags): Promise<void> {
  const spec = await remoteServer(name, flags);
  const { OAuthStore } = await import("../../mcp/oauth/store.ts");
  const store = new OAuthStore();
  const removed = store.delete(spec.name, spec.config.url);
  log(
    removed
      ? `logged out of "${name}": its tokens were removed from ${store.path}`
      : `no login stored for "${name}"`,
  );
}
