// A small OAuth 2.1 authorization server and an MCP server it protects, both on 127.0.0.1, for tests of
// Keel's OAuth client: protected-resource and authorization-server metadata, dynamic client
// registration, the authorization endpoint (approves at once, checks PKCE S256), code exchange and
// refresh. Tests can expire the access tokens or revoke everything.
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

interface Grant {
  clientId: string;
  expiresAt: number;
  revoked: boolean;
}

export interface TestAuthServer {
  /** The protected MCP endpoint. */
  mcpUrl: string;
  issuer: string;
  stats: {
    registrations: number;
    authorizations: number;
    codeExchanges: number;
    refreshes: number;
    rejected: number;
  };
  /** Every access token issued so far stops working (as if its time ran out). */
  expireAccessTokens(): void;
  /** Every token, access and refresh, is revoked. */
  revokeAll(): void;
  close(): Promise<void>;
}

const base64url = (buffer: Buffer) => buffer.toString("base64url");

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers });
  res.end(JSON.stringify(value));
}

function mcpServer(subject: string): Server {
  const server = new Server({ name: "protected", version: "1" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: "whoami", description: "Says who the token belongs to", inputSchema: { type: "object" } },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async () => ({
    content: [{ type: "text", text: `you are ${subject}` }],
  }));
  return server;
}

export async function startTestAuthServer(): Promise<TestAuthServer> {
  const clients = new Map<string, { redirectUris: string[] }>();
  const codes = new Map<string, { clientId: string; challenge: string; redirectUri: string }>();
  const accessTokens = new Map<string, Grant>();
  const refreshTokens = new Map<string, Grant>();
  const stats = { registrations: 0, authorizations: 0, codeExchanges: 0, refreshes: 0, rejected: 0 };
  let base = "";

  const issue = (clientId: string) => {
    const access = base64url(randomBytes(16));
    accessTokens.set(access, { clientId, expiresAt: Date.now() + 3_600_000, revoked: false });
    return { access_token: access, token_type: "Bearer", expires_in: 3600 };
  };

  const handleToken = async (req: IncomingMessage, res: ServerResponse) => {
    const form = new URLSearchParams(await body(req));
    if (form.get("grant_type") === "authorization_code") {
      const code = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      const challenge = base64url(createHash("sha256").update(verifier).digest());
      if (!code || code.challenge !== challenge || code.redirectUri !== form.get("redirect_uri"))
        return json(res, 400, {
          error: "invalid_grant",
          error_description: "bad code, verifier or redirect",
        });
      stats.codeExchanges++;
      const refresh = base64url(randomBytes(16));
      refreshTokens.set(refresh, {
        clientId: code.clientId,
        expiresAt: Number.POSITIVE_INFINITY,
        revoked: false,
      });
      return json(res, 200, { ...issue(code.clientId), refresh_token: refresh });
    }
    if (form.get("grant_type") === "refresh_token") {
      const grant = refreshTokens.get(form.get("refresh_token") ?? "");
      if (!grant || grant.revoked)
        return json(res, 400, { error: "invalid_grant", error_description: "revoked" });
      stats.refreshes++;
      return json(res, 200, issue(grant.clientId));
    }
    return json(res, 400, { error: "unsupported_grant_type" });
  };

  const handleMcp = async (req: IncomingMessage, res: ServerResponse) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
    const grant = accessTokens.get(token);
    if (!grant || grant.revoked || grant.expiresAt <= Date.now()) {
      stats.rejected++;
      res.writeHead(401, {
        "www-authenticate": `Bearer error="invalid_token", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
        "content-type": "application/json",
      });
      res.end(JSON.stringify({ error: "invalid_token" }));
      return;
    }
    // Stateless: a fresh server and transport for each request.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = mcpServer(grant.clientId);
    await server.connect(transport);
    res.on("close", () => void server.close());
    await transport.handleRequest(req, res);
  };

  const http = createServer((req, res) => {
    const url = new URL(req.url ?? "/", base);
    const route = `${req.method} ${url.pathname}`;
    const done = (promise: Promise<void>) => promise.catch(() => json(res, 500, { error: "server_error" }));
    if (
      route === "GET /.well-known/oauth-protected-resource/mcp" ||
      route === "GET /.well-known/oauth-protected-resource"
    )
      return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base] });
    if (route === "GET /.well-known/oauth-authorization-server")
      return json(res, 200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
      });
    if (route === "POST /register")
      return done(
        body(req).then((text) => {
          const metadata = JSON.parse(text) as { redirect_uris: string[] };
          const clientId = `client-${++stats.registrations}`;
          clients.set(clientId, { redirectUris: metadata.redirect_uris });
          json(res, 201, {
            ...metadata,
            client_id: clientId,
            client_id_issued_at: Math.floor(Date.now() / 1000),
          });
        }),
      );
    if (route === "GET /authorize") {
      const params = url.searchParams;
      const client = clients.get(params.get("client_id") ?? "");
      const redirectUri = params.get("redirect_uri") ?? "";
      if (!client?.redirectUris.includes(redirectUri) || params.get("code_challenge_method") !== "S256")
        return json(res, 400, { error: "invalid_request" });
      stats.authorizations++;
      const code = base64url(randomBytes(12));
      codes.set(code, {
        clientId: params.get("client_id")!,
        challenge: params.get("code_challenge") ?? "",
        redirectUri,
      });
      const target = new URL(redirectUri);
      target.searchParams.set("code", code);
      if (params.get("state")) target.searchParams.set("state", params.get("state")!);
      res.writeHead(302, { location: target.href });
      res.end();
      return;
    }
    if (route === "POST /token") return done(handleToken(req, res));
    if (url.pathname === "/mcp") return done(handleMcp(req, res));
    json(res, 404, { error: "not_found" });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", () => resolve()));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    mcpUrl: `${base}/mcp`,
    issuer: base,
    stats,
    expireAccessTokens: () => {
      for (const grant of accessTokens.values()) grant.expiresAt = 0;
    },
    revokeAll: () => {
      for (const grant of [...accessTokens.values(), ...refreshTokens.values()]) grant.revoked = true;
    },
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
