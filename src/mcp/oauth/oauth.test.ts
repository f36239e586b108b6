// Keel's OAuth client against a local authorization server on 127.0.0.1: the login (registration, PKCE,
// the loopback redirect), stored tokens used by later connections, refresh of an expired token, a revoked
// login reported as "run keel mcp login", and the `keel mcp login` / `logout` commands.
import { execFile, spawn } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempFolderForTest } from "../../tool/testing/tempFolder.ts";
import { McpConnection } from "../connection.ts";
import { startTestAuthServer, type TestAuthServer } from "../testing/authServer.ts";
import { KEEL_ENTRY, makeWorld, waitFor } from "../testing/harness.ts";
import { startInProcessHttp } from "../testing/inProcessHttp.ts";
import { OAuthStore } from "./store.ts";

const run = promisify(execFile);
type Text = { type: "text"; text: string };

/** The person's browser, as far as the test goes: follows the authorization URL to Keel's listener. */
const followInBrowser = async (url: URL) => {
  const response = await fetch(url);
  await response.text();
};

describe("OAuth for a remote MCP server", () => {
  let server: TestAuthServer;
  let store: OAuthStore;
  const spec = () => ({
    name: "protected",
    origin: "test",
    config: { type: "http" as const, url: server.mcpUrl, headers: {} },
  });

  beforeAll(async () => {
    server = await startTestAuthServer();
    store = new OAuthStore(join(tempFolderForTest("keel-oauth-"), "mcp-oauth.json"));
  });
  afterAll(() => server.close());

  it("fails with 'run keel mcp login' when there is no login, without registering anything", async () => {
    const connection = new McpConnection(spec(), { oauthStore: store });
    await connection.connect();
    expect(connection.state).toBe("failed");
    expect(connection.error).toBe("the server requires authorization: run `keel mcp login protected`");
    expect(server.stats.registrations).toBe(0);
  });

  it("logs in: registers, authorizes with PKCE through the loopback redirect, stores the tokens 0600", async () => {
    const connection = new McpConnection(spec(), { oauthStore: store, authorize: followInBrowser });
    await connection.connect();
    expect(connection.error).toBeUndefined();
    expect(connection.state).toBe("connected");
    expect(server.stats).toMatchObject({ registrations: 1, authorizations: 1, codeExchanges: 1 });
    const result = await connection.callTool("whoami", {}, { signal: new AbortController().signal });
    expect((result.content as Text[])[0]!.text).toBe("you are client-1");
    await connection.close();
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    const entry = store.get("protected", server.mcpUrl)!;
    expect(entry.tokens?.access_token).toBeTruthy();
    expect(entry.tokens?.refresh_token).toBeTruthy();
    expect(entry.client?.client_id).toBe("client-1");
  });

  it("uses the stored tokens in a later session, with nobody to log in", async () => {
    const connection = new McpConnection(spec(), { oauthStore: store });
    await connection.connect();
    expect(connection.state).toBe("connected");
    expect(server.stats.authorizations).toBe(1);
    await connection.close();
  });

  it("refreshes an expired access token and goes on", async () => {
    const connection = new McpConnection(spec(), { oauthStore: store });
    await connection.connect();
    const before = store.get("protected", server.mcpUrl)!.tokens!.access_token;
    server.expireAccessTokens();
    const result = await connection.callTool("whoami", {}, { signal: new AbortController().signal });
    expect((result.content as Text[])[0]!.text).toBe("you are client-1");
    expect(server.stats.refreshes).toBe(1);
    expect(store.get("protected", server.mcpUrl)!.tokens!.access_token).not.toBe(before);
    expect(server.stats.authorizations).toBe(1);
    await connection.close();
  });

  it("reports a revoked login as needing a new one", async () => {
    server.revokeAll();
    const connection = new McpConnection(spec(), { oauthStore: store });
    await connection.connect();
    expect(connection.state).toBe("failed");
    expect(connection.error).toBe("the server requires authorization: run `keel mcp login protected`");
    expect(store.get("protected", server.mcpUrl)?.tokens).toBeUndefined();
  });
});

describe("a login to a server that offers no OAuth", () => {
  it("says so in plain words, with the fixed-token alternative, instead of the SDK's raw parse error", async () => {
    // keel mcp --http itself: a bearer token, no OAuth metadata, no registration endpoint.
    const server = await startInProcessHttp({ token: "fixed-token" });
    const store = new OAuthStore(join(tempFolderForTest("keel-oauth-"), "mcp-oauth.json"));
    try {
      const config = { type: "http" as const, url: server.url, headers: {} };
      const connection = new McpConnection(
        { name: "fixed", origin: "test", config },
        { oauthStore: store, authorize: followInBrowser },
      );
      await connection.connect();
      expect(connection.state).toBe("failed");
      expect(connection.error).toMatch(
        /^the OAuth login failed: .*answered HTTP 404 .*may not offer an OAuth login/,
      );
      expect(connection.error).toMatch(/"headers": \{"Authorization": "Bearer <token>"\}/);
      expect(connection.error).not.toMatch(/Raw body|invalid_type/);
      expect(store.get("fixed", server.url)?.tokens).toBeUndefined();
      const withToken = new McpConnection(
        {
          name: "fixed",
          origin: "test",
          config: { ...config, headers: { Authorization: "Bearer fixed-token" } },
        },
        { oauthStore: store },
      );
      await withToken.connect();
      expect(withToken.state).toBe("connected");
      await withToken.close();
    } finally {
      await server.close();
    }
  });
});

describe("keel mcp login / logout", () => {
  it("logs in through the printed URL, then list connects, and logout forgets the tokens", async () => {
    const server = await startTestAuthServer();
    const world = makeWorld();
    const config = join(world.project, "servers.json");
    writeFileSync(config, JSON.stringify({ mcpServers: { remote: { type: "http", url: server.mcpUrl } } }));
    const args = ["--cwd", world.project, "--mcp-config", config];
    try {
      const login = spawn(process.execPath, [KEEL_ENTRY, "login", "remote", "--no-browser", ...args], {
        env: world.env,
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      login.stderr!.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
      });
      await waitFor(() => /https?:\/\/\S+\/authorize\?\S+/.test(stderr), "the login URL");
      await followInBrowser(new URL(/(https?:\/\/\S+\/authorize\?\S+)/.exec(stderr)![1]!));
      const code = await new Promise<number | null>((resolve) => login.on("exit", resolve));
      expect(stderr).toMatch(/logged in to "remote" \(1 tools\)/);
      expect(code).toBe(0);
      const storePath = join(world.home, ".keel", "mcp-oauth.json");
      expect(statSync(storePath).mode & 0o777).toBe(0o600);
      expect(readFileSync(storePath, "utf8")).toContain("access_token");

      const listed = await run(process.execPath, [KEEL_ENTRY, "list", ...args], { env: world.env });
      expect(listed.stdout).toMatch(/remote .*\[connected, 1 tools\]/);

      const logout = await run(process.execPath, [KEEL_ENTRY, "logout", "remote", ...args], {
        env: world.env,
      });
      expect(logout.stderr).toMatch(/logged out of "remote"/);
      const after = await run(process.execPath, [KEEL_ENTRY, "list", ...args], { env: world.env }).catch(
        (error: { code: number; stdout: string }) => error,
      );
      expect((after as { code: number }).code).toBe(1);
      expect((after as { stdout: string }).stdout).toMatch(
        /error: the server requires authorization: run `keel mcp login remote`/,
      );
    } finally {
      await server.close();
    }
  });
});
