// Keel as an OAuth 2.1 client of a remote MCP server, through the MCP SDK's auth support: the SDK does
// the protected-resource and authorization-server discovery, dynamic client registration, PKCE, the
// code exchange and refreshing; this provider keeps what it gets in the OAuth store and, when a person
// (or a test driver) can authorize, opens the authorization URL and waits on the loopback redirect.
// Without one, an authorization the server asks for is recorded as "needs login" instead.
import { randomBytes } from "node:crypto";
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import {
  type CallbackListener,
  freeLoopbackPort,
  listenForCallback,
  redirectUrlFor,
} from "./callbackListener.ts";
import type { OAuthEntry, OAuthStore } from "./store.ts";

/** `oauth` in a server's config: a pre-registered client, scopes, a fixed callback port. */
export interface McpOAuthSettings {
  clientId?: string;
  clientSecret?: string;
  /** Space-separated scopes to ask for when the server does not say which. */
  scopes?: string;
  /** The loopback port of the redirect URI, for clients registered with a fixed one. */
  callbackPort?: number;
  /** An https URL of this client's metadata document (CIMD), used as client_id where the server takes it. */
  clientMetadataUrl?: string;
}

/** Opens an authorization URL for the person (a browser), or follows it (a test driver). */
export type Authorizer = (authorizationUrl: URL) => Promise<void>;

export interface KeelOAuthProviderOptions {
  store: OAuthStore;
  serverName: string;
  serverUrl: string;
  settings?: McpOAuthSettings;
  authorize?: Authorizer;
  /** How long a login waits for the browser to come back (default 5 min). */
  loginTimeoutMs?: number;
}

const LOGIN_TIMEOUT_MS = 5 * 60_000;

/** Whether Keel has anything OAuth for this server (else a 401 just says "needs login"). */
export function hasStoredAuthorization(store: OAuthStore, serverName: string, serverUrl: string): boolean {
  const entry = store.get(serverName, serverUrl);
  return entry?.tokens !== undefined;
}

export class KeelOAuthProvider implements OAuthClientProvider {
  readonly #options: KeelOAuthProviderOptions;
  #port: number;
  #listener: CallbackListener | undefined;
  #pendingCode: Promise<string> | undefined;
  #codeVerifier: string | undefined;
  /** Set when the server asked for an authorization nobody here can give. */
  needsLogin = false;

  private constructor(options: KeelOAuthProviderOptions, port: number) {
    this.#options = options;
    this.#port = port;
  }

  /** The provider, with the redirect port known: the registered one, the configured one, or a free one. */
  static async create(options: KeelOAuthProviderOptions): Promise<KeelOAuthProvider> {
    const stored = options.store.get(options.serverName, options.serverUrl)?.redirectPort;
    const port =
      options.settings?.callbackPort ?? stored ?? (options.authorize ? await freeLoopbackPort() : 0);
    return new KeelOAuthProvider(options, port);
  }

  get #entry(): OAuthEntry | undefined {
    return this.#options.store.get(this.#options.serverName, this.#options.serverUrl);
  }

  #update(change: (entry: OAuthEntry) => OAuthEntry): void {
    this.#options.store.update(this.#options.serverName, this.#options.serverUrl, change);
  }

  get redirectUrl(): string {
    return redirectUrlFor(this.#port);
  }

  get clientMetadataUrl(): string | undefined {
    return this.#options.settings?.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.#options.settings?.scopes;
    return {
      client_name: "Keel",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      // A command-line program keeps no secret safe: a public client, protected by PKCE.
      token_endpoint_auth_method: "none",
      ...(scopes ? { scope: scopes } : {}),
    };
  }

  state(): string {
    return randomBytes(16).toString("base64url");
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const stored = this.#entry?.client;
    if (stored) return stored;
    const { clientId, clientSecret } = this.#options.settings ?? {};
    if (!clientId) return undefined;
    return { client_id: clientId, ...(clientSecret ? { client_secret: clientSecret } : {}) };
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.#update((entry) => ({ ...entry, client, redirectPort: this.#port }));
  }

  tokens(): OAuthTokens | undefined {
    const tokens = this.#entry?.tokens;
    if (!tokens) return undefined;
    const { expiresAt: _expiresAt, ...rest } = tokens;
    return rest;
  }

  saveTokens(tokens: OAuthTokens): void {
    const expiresAt = tokens.expires_in === undefined ? undefined : Date.now() + tokens.expires_in * 1000;
    // A refresh that returns no new refresh token keeps the old one (RFC 6749 §6).
    const refresh = tokens.refresh_token ?? this.#entry?.tokens?.refresh_token;
    this.#update((entry) => ({
      ...entry,
      tokens: {
        ...tokens,
        ...(refresh ? { refresh_token: refresh } : {}),
        ...(expiresAt ? { expiresAt } : {}),
      },
      codeVerifier: undefined,
    }));
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const authorize = this.#options.authorize;
    if (!authorize) {
      this.needsLogin = true;
      return;
    }
    this.#listener?.close();
    const state = authorizationUrl.searchParams.get("state") ?? "";
    const listener = await listenForCallback({
      port: this.#port,
      state,
      timeoutMs: this.#options.loginTimeoutMs ?? LOGIN_TIMEOUT_MS,
    });
    this.#listener = listener;
    this.#pendingCode = listener.code;
    try {
      await authorize(authorizationUrl);
    } catch (error) {
      listener.close();
      this.#pendingCode = undefined;
      throw error;
    }
  }

  /** The code of an authorization started by the last redirect, once; undefined when none is waiting. */
  takePendingCode(): Promise<string> | undefined {
    const pending = this.#pendingCode;
    this.#pendingCode = undefined;
    return pending;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#codeVerifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.#codeVerifier) throw new Error("no login in progress (PKCE code verifier missing)");
    return this.#codeVerifier;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#entry?.discovery;
  }

  saveDiscoveryState(discovery: OAuthDiscoveryState): void {
    this.#update((entry) => ({ ...entry, discovery }));
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "verifier") {
      this.#codeVerifier = undefined;
      return;
    }
    this.#update((entry) => {
      const next = { ...entry };
      if (scope === "all" || scope === "tokens") delete next.tokens;
      if (scope === "all" || scope === "client") delete next.client;
      if (scope === "all" || scope === "discovery") delete next.discovery;
      return next;
    });
  }

  close(): void {
    this.#listener?.close();
    this.#listener = undefined;
  }
}
