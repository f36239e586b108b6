// One configured MCP server: connecting with a startup timeout, listing its tools, calling them with a
// per-call timeout, and reconnecting after the server went away. Nothing here throws past a call: a
// server that crashes, hangs or writes garbage leaves a state and an error a person can read. Remote
// servers may need OAuth (see oauth/); their forms (elicitation) go to the session's prompter; an HTTP
// session ends with DELETE when the connection closes.

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, Tool as McpToolDef, Resource } from "@modelcontextprotocol/sdk/types.js";
import { errorMessage, ToolError } from "../tool/errors.ts";
import { keelVersion } from "../version.ts";
import { answerElicitation, type ElicitationRoute } from "./clientElicitation.ts";
import { createClientTransport, endRemoteSession, type RemoteTransport } from "./clientTransport.ts";
import type { McpRemoteConfig, McpServerConfig, McpServerSpec } from "./config.ts";
import { CONNECTION_CLOSED, codeOf, describeFailure, REQUEST_TIMEOUT } from "./connectionFailure.ts";
import { normalizeNamePart } from "./names.ts";
import { type Authorizer, hasStoredAuthorization, KeelOAuthProvider } from "./oauth/provider.ts";
import { OAuthStore } from "./oauth/store.ts";

export type McpServerState = "pending" | "connected" | "failed" | "disconnected" | "disabled" | "closed";

const STDERR_TAIL_CHARS = 4_000;
/** Authorizations one connect or call may go through (a login, then a step-up to more scopes). */
const MAX_AUTHORIZATIONS = 2;

function envMs(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = Number(env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

export function defaultToolTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  return envMs(env, "MCP_TOOL_TIMEOUT", 120_000);
}

export function defaultStartupTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  return envMs(env, "MCP_TIMEOUT", 30_000);
}

export interface ConnectionOptions {
  /** Environment for stdio servers (process env with settings env laid over it); also read for timeouts. */
  env?: NodeJS.ProcessEnv;
  /** Where servers' forms go (the session's prompter); without one they are declined. */
  elicitation?: ElicitationRoute;
  /** OAuth tokens and registrations (default ~/.keel/mcp-oauth.json). */
  oauthStore?: OAuthStore;
  /**
   * Someone who can authorize now (`keel mcp login`, a test driver): opens the authorization URL. Without
   * it a server that needs a login fails with "run keel mcp login <name>", and stored tokens are refreshed.
   */
  authorize?: Authorizer;
}

export interface CallOptions {
  signal: AbortSignal;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

export class McpConnection {
  readonly name: string;
  /** The name as it appears in tool names and permission rules. */
  readonly ruleName: string;
  readonly spec: McpServerSpec;
  state: McpServerState;
  error: string | undefined;
  tools: McpToolDef[] = [];
  serverInfo: { name: string; version: string } | undefined;
  instructions: string | undefined;
  readonly #env: NodeJS.ProcessEnv;
  readonly #options: ConnectionOptions;
  #client: Client | undefined;
  #transport: Transport | undefined;
  #provider: KeelOAuthProvider | undefined;
  /** Forms waiting for the person; a cancelled call withdraws them (the server asked on its behalf). */
  readonly #pendingForms = new Set<AbortController>();
  #connecting: Promise<void> | undefined;
  #stderr = "";
  #lastProtocolError: string | undefined;
  /** Progress callbacks by our own progress token (see callTool). */
  readonly #progress = new Map<string, NonNullable<CallOptions["onProgress"]>>();
  #progressCounter = 0;

  constructor(spec: McpServerSpec, options: ConnectionOptions = {}) {
    this.name = spec.name;
    this.ruleName = normalizeNamePart(spec.name);
    this.spec = spec;
    this.#env = options.env ?? process.env;
    this.#options = options;
    this.state = spec.disabled ? "disabled" : spec.error ? "failed" : "pending";
    this.error = spec.error;
  }

  get config(): McpServerConfig | undefined {
    return this.spec.config;
  }

  get supportsResources(): boolean {
    return this.state === "connected" && this.#client?.getServerCapabilities()?.resources !== undefined;
  }

  get toolTimeoutMs(): number {
    return this.spec.config?.toolTimeoutMs ?? defaultToolTimeoutMs(this.#env);
  }

  /** Connects and lists tools; resolves either way, leaving `state` and `error`. */
  connect(): Promise<void> {
    if (this.state === "disabled" || this.spec.error || !this.spec.config) return Promise.resolve();
    this.#connecting ??= this.#connect(this.spec.config).finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #connect(config: McpServerConfig): Promise<void> {
    const startupMs = config.startupTimeoutMs ?? defaultStartupTimeoutMs(this.#env);
    this.state = "pending";
    this.#stderr = "";
    this.#lastProtocolError = undefined;
    let transport: Transport | undefined;
    let client: Client | undefined;
    try {
      this.#provider = config.type === "stdio" ? undefined : await this.#oauthProvider(config);
      for (let authorizations = 0; ; authorizations++) {
        transport = await createClientTransport(config, {
          env: this.#env,
          provider: this.#provider,
          onStderr: (chunk) => {
            this.#stderr = (this.#stderr + chunk).slice(-STDERR_TAIL_CHARS);
          },
        });
        client = await this.#newClient();
        try {
          await client.connect(transport, { timeout: startupMs });
          break;
        } catch (error) {
          const code = authorizations < MAX_AUTHORIZATIONS ? this.#provider?.takePendingCode() : undefined;
          if (!code) throw error;
          client.onclose = undefined;
          await (transport as RemoteTransport).finishAuth(await code);
          await client.close().catch(() => {});
        }
      }
      this.#transport = transport;
      const connected = client;
      this.tools = await this.#withAuthorization(() => this.#listTools(connected, startupMs));
      this.serverInfo = client.getServerVersion();
      this.instructions = client.getInstructions();
      this.#client = client;
      this.state = "connected";
      this.error = undefined;
    } catch (error) {
      this.state = "failed";
      this.error = this.#provider?.needsLogin
        ? `the server requires authorization: run \`keel mcp login ${this.name}\``
        : describeFailure(error, {
            name: this.name,
            config,
            startupMs,
            ...(this.#lastProtocolError ? { protocolError: this.#lastProtocolError } : {}),
            stderrTail: this.#stderrTail(),
          });
      this.#client = undefined;
      this.#transport = undefined;
      if (client) client.onclose = undefined;
      await (client ?? transport)?.close().catch(() => {});
    }
  }

  /** An OAuth provider when the server may need one: a login is possible now, or Keel holds its tokens. */
  async #oauthProvider(config: McpRemoteConfig): Promise<KeelOAuthProvider | undefined> {
    const store = this.#options.oauthStore ?? new OAuthStore();
    const authorize = this.#options.authorize;
    if (!authorize && !hasStoredAuthorization(store, this.name, config.url)) return undefined;
    return KeelOAuthProvider.create({
      store,
      serverName: this.name,
      serverUrl: config.url,
      ...(config.oauth ? { settings: config.oauth } : {}),
      ...(authorize ? { authorize } : {}),
    });
  }

  async #newClient(): Promise<Client> {
    const [{ Client }, { ElicitRequestSchema, ProgressNotificationSchema }] = await Promise.all([
      import("@modelcontextprotocol/sdk/client/index.js"),
      import("@modelcontextprotocol/sdk/types.js"),
    ]);
    // Forms only (no URL mode); the SDK fills in a form's defaults for fields the person left empty.
    const client = new Client(
      { name: "keel", version: keelVersion() },
      { capabilities: { elicitation: { form: { applyDefaults: true } } } },
    );
    client.setNotificationHandler(ProgressNotificationSchema, async (notification) => {
      const { progressToken, ...progress } = notification.params;
      this.#progress.get(String(progressToken))?.(progress);
    });
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      const pending = new AbortController();
      const signal = AbortSignal.any([extra.signal, pending.signal]);
      this.#pendingForms.add(pending);
      try {
        return await answerElicitation(this.#options.elicitation, this.name, request.params, signal);
      } finally {
        this.#pendingForms.delete(pending);
      }
    });
    client.onerror = (error) => {
      // Garbage on the wire is reported per message; the connection goes on.
      this.#lastProtocolError = errorMessage(error);
    };
    client.onclose = () => this.#onClosed(client);
    return client;
  }

  async #listTools(client: Client, timeout: number): Promise<McpToolDef[]> {
    if (!client.getServerCapabilities()?.tools) return [];
    const tools: McpToolDef[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { timeout });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  #onClosed(client: Client): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    if (this.state !== "connected") return;
    this.state = "disconnected";
    this.error = `the server closed the connection${this.#stderrTail()}; it will be restarted on the next call`;
  }

  #stderrTail(): string {
    const tail = this.#stderr.trim().split("\n").slice(-5).join("\n");
    return tail ? ` (its stderr ends: ${tail})` : "";
  }

  /** The live client, reconnecting once if the server went away. Throws a ToolError the model can read. */
  async ensureClient(): Promise<Client> {
    if (this.#client && this.state === "connected") return this.#client;
    if (this.state === "disabled")
      throw new ToolError("mcp_unavailable", `MCP server "${this.name}" is disabled in the settings.`);
    if (this.spec.error)
      throw new ToolError(
        "mcp_unavailable",
        `MCP server "${this.name}" is misconfigured: ${this.spec.error}`,
      );
    const before = this.error;
    await this.connect();
    if (this.#client && this.state === "connected") return this.#client;
    throw new ToolError(
      "mcp_unavailable",
      `MCP server "${this.name}" is not available: ${this.error ?? before ?? "not connected"}. Tell the user; do not retry at once.`,
    );
  }

  async callTool(
    toolName: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<CallToolResult> {
    const client = await this.ensureClient();
    const timeout = this.toolTimeoutMs;
    // Our own progress token and handler: the SDK's drops progress read together with the response.
    const token = options.onProgress ? `keel-${++this.#progressCounter}` : undefined;
    if (token) this.#progress.set(token, options.onProgress!);
    const withdrawForms = () => {
      for (const form of this.#pendingForms) form.abort(new Error("the call was cancelled"));
    };
    options.signal.addEventListener("abort", withdrawForms, { once: true });
    const call = () =>
      client.callTool(
        { name: toolName, arguments: args, ...(token ? { _meta: { progressToken: token } } : {}) },
        undefined,
        { signal: options.signal, timeout },
      ) as Promise<CallToolResult>;
    try {
      return await this.#withAuthorization(call);
    } catch (error) {
      throw this.#callError(error, `${toolName}`, timeout, options.signal);
    } finally {
      options.signal.removeEventListener("abort", withdrawForms);
      if (token) this.#progress.delete(token);
    }
  }

  /** Runs a request; when the server asked for more authorization and it was given, once more. */
  async #withAuthorization<T>(request: () => Promise<T>): Promise<T> {
    for (let authorizations = 0; ; authorizations++) {
      try {
        return await request();
      } catch (error) {
        const code = authorizations < MAX_AUTHORIZATIONS ? this.#provider?.takePendingCode() : undefined;
        if (!code) throw error;
        await (this.#transport as RemoteTransport).finishAuth(await code);
      }
    }
  }

  async listResources(signal: AbortSignal): Promise<Resource[]> {
    const client = await this.ensureClient();
    if (!client.getServerCapabilities()?.resources) return [];
    const resources: Resource[] = [];
    let cursor: string | undefined;
    try {
      do {
        const page = await client.listResources(cursor ? { cursor } : {}, {
          signal,
          timeout: this.toolTimeoutMs,
        });
        resources.push(...page.resources);
        cursor = page.nextCursor;
      } while (cursor);
    } catch (error) {
      throw this.#callError(error, "resources/list", this.toolTimeoutMs, signal);
    }
    return resources;
  }

  async readResource(uri: string, signal: AbortSignal) {
    const client = await this.ensureClient();
    try {
      return await client.readResource({ uri }, { signal, timeout: this.toolTimeoutMs });
    } catch (error) {
      throw this.#callError(error, `resources/read ${uri}`, this.toolTimeoutMs, signal);
    }
  }

  #callError(error: unknown, what: string, timeout: number, signal: AbortSignal): ToolError {
    if (signal.aborted)
      return new ToolError("aborted", `${what} on MCP server "${this.name}" was cancelled.`);
    if (codeOf(error) === REQUEST_TIMEOUT)
      return new ToolError(
        "timeout",
        `${what} on MCP server "${this.name}" gave no answer within ${Math.round(timeout / 1000)} s and was cancelled (raise MCP_TOOL_TIMEOUT or the server's "timeout" if it needs longer).`,
      );
    if (codeOf(error) === CONNECTION_CLOSED || this.state === "disconnected")
      return new ToolError(
        "mcp_disconnected",
        `MCP server "${this.name}" went away during ${what}${this.#stderrTail()}. It will be restarted on the next call; the call may or may not have taken effect.`,
      );
    return new ToolError(
      "mcp_error",
      `MCP server "${this.name}" returned an error for ${what}: ${errorMessage(error)}`,
    );
  }

  async close(): Promise<void> {
    const client = this.#client;
    const transport = this.#transport;
    this.#client = undefined;
    this.#transport = undefined;
    this.#provider?.close();
    if (this.state === "connected" || this.state === "disconnected") this.state = "closed";
    if (client) client.onclose = undefined;
    // Servers keep a session until told otherwise: say goodbye (DELETE) before dropping the connection.
    await endRemoteSession(transport);
    await client?.close().catch(() => {});
  }
}
