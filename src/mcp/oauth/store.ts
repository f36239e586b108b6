// Where Keel keeps what OAuth gave it for remote MCP servers: ~/.keel/mcp-oauth.json, readable by the
// user only (0600, in a 0700 folder), written atomically. One entry per server name and URL: the client
// registration, the tokens (with when they expire), the PKCE verifier of a login in progress, the
// discovery results and the loopback port registered as redirect URI.
import { chmodSync } from "node:fs";
import { join } from "node:path";
import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { atomicWriteJson, readJsonObject } from "../../settings/atomicJson.ts";
import { keelUserDir } from "../../settings/locations.ts";

export interface StoredTokens extends OAuthTokens {
  /** When the access token expires (ms since epoch), computed from expires_in when saved. */
  expiresAt?: number;
}

export interface OAuthEntry {
  serverName: string;
  serverUrl: string;
  client?: OAuthClientInformationMixed;
  tokens?: StoredTokens;
  codeVerifier?: string;
  discovery?: OAuthDiscoveryState;
  /** The loopback port of the registered redirect URI (http://127.0.0.1:<port>/callback). */
  redirectPort?: number;
}

export function oauthStorePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(keelUserDir(env), "mcp-oauth.json");
}

/** The key of a server's entry: its name and URL, so a renamed or moved server logs in anew. */
export function entryKey(serverName: string, serverUrl: string): string {
  return `${serverName}|${serverUrl}`;
}

export class OAuthStore {
  readonly path: string;

  constructor(path: string = oauthStorePath()) {
    this.path = path;
  }

  #readAll(): Record<string, OAuthEntry> {
    const data = readJsonObject(this.path);
    const servers = data.servers;
    return servers !== null && typeof servers === "object" && !Array.isArray(servers)
      ? (servers as Record<string, OAuthEntry>)
      : {};
  }

  get(serverName: string, serverUrl: string): OAuthEntry | undefined {
    return this.#readAll()[entryKey(serverName, serverUrl)];
  }

  /** Changes one entry (read, change, write): concurrent Keel processes lose at most their own change. */
  update(serverName: string, serverUrl: string, change: (entry: OAuthEntry) => OAuthEntry | undefined): void {
    const servers = this.#readAll();
    const key = entryKey(serverName, serverUrl);
    const next = change(servers[key] ?? { serverName, serverUrl });
    if (next) servers[key] = next;
    else delete servers[key];
    atomicWriteJson(this.path, { version: 1, servers }, 0o600);
    // Tokens are secrets: 0600 even when the file existed with looser bits.
    chmodSync(this.path, 0o600);
  }

  delete(serverName: string, serverUrl: string): boolean {
    const existed = this.get(serverName, serverUrl) !== undefined;
    if (existed) this.update(serverName, serverUrl, () => undefined);
    return existed;
  }
}
