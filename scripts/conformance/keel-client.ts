// The conformance suite's client under test: Keel's own MCP client (src/mcp), as `keel run` uses it,
// with a stand-in for the model and the person. Run by `conformance client --command ...`, which appends
// the test server's URL and names the scenario in MCP_CONFORMANCE_SCENARIO (and its credentials, if any,
// in MCP_CONFORMANCE_CONTEXT).
//   - the person: logs in when a server needs OAuth (the suite's authorization server approves at once,
//     so "opening the browser" is following the authorization URL to Keel's loopback listener), and
//     accepts a form as shown (the SDK fills in its defaults);
//   - the model: calls every tool the server lists once, with the smallest input its schema allows,
//     through the governed pipeline (an allow rule for the server, as a user would write).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectMcpServers } from "../../src/mcp/client.ts";
import type { McpOAuthSettings } from "../../src/mcp/oauth/provider.ts";
import { OAuthStore } from "../../src/mcp/oauth/store.ts";
import { runToolUse } from "../../src/pipeline/runToolUse.ts";
import type { Prompter } from "../../src/pipeline/services.ts";
import { createToolUseContext } from "../../src/tool/createContext.ts";

const url = process.argv[2];
if (!url) {
  process.stderr.write("usage: keel-client.ts <server-url>\n");
  process.exit(2);
}
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const credentials = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as Record<string, unknown>;
const home = mkdtempSync(join(tmpdir(), "keel-conformance-"));
process.on("exit", () => rmSync(home, { recursive: true, force: true }));

/** The client metadata document URL the suite's CIMD scenario expects (its fixture; never fetched). */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/**
 * What a user would put in the server's `oauth` config: a pre-registered client when the suite gives one,
 * and the URL of a client metadata document (CIMD), which Keel uses as its client_id where the
 * authorization server takes one and otherwise ignores (it then registers dynamically).
 */
function oauthSettings(): McpOAuthSettings {
  const clientId = credentials.client_id;
  const clientSecret = credentials.client_secret;
  return {
    clientMetadataUrl: CLIENT_METADATA_URL,
    ...(typeof clientId === "string" ? { clientId } : {}),
    ...(typeof clientSecret === "string" ? { clientSecret } : {}),
  };
}

/** The smallest input a JSON Schema object allows: each required property with a plain value. */
function minimalInput(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const properties = (schema?.properties ?? {}) as Record<string, { type?: string; enum?: unknown[] }>;
  const required = (schema?.required ?? []) as string[];
  const input: Record<string, unknown> = {};
  for (const name of required) {
    const property = properties[name] ?? {};
    if (property.enum?.length) input[name] = property.enum[0];
    else if (property.type === "number" || property.type === "integer") input[name] = 1;
    else if (property.type === "boolean") input[name] = true;
    else if (property.type === "array") input[name] = [];
    else if (property.type === "object") input[name] = {};
    else input[name] = "test";
  }
  return input;
}

const person: Prompter = {
  name: "conformance person",
  ask: async () => ({ behavior: "deny", reason: "the conformance person only answers forms" }),
  elicit: async () => ({ action: "accept", content: {} }),
};

const settings = oauthSettings();
const manager = await connectMcpServers(
  [
    {
      name: "conformance",
      origin: "conformance suite",
      config: { type: "http", url, headers: {}, oauth: settings },
    },
  ],
  {
    oauthStore: new OAuthStore(join(home, "mcp-oauth.json")),
    authorize: async (authorizationUrl) => {
      const response = await fetch(authorizationUrl);
      await response.text();
    },
    elicitation: { prompter: person, log: (line) => process.stderr.write(`${line}\n`) },
  },
);
const [status] = manager.status();
process.stderr.write(`[${scenario}] ${status?.state}${status?.error ? `: ${status.error}` : ""}\n`);
const failed = status?.state !== "connected";
if (!failed) {
  const tools = manager.tools().filter((tool) => tool.isMcp);
  const context = createToolUseContext({ tools, cwd: home, allow: ["mcp__conformance"] });
  for (const tool of tools) {
    const toolUse = {
      type: "tool_use" as const,
      id: tool.name,
      name: tool.name,
      input: minimalInput(tool.inputJSONSchema),
    };
    for await (const event of runToolUse(toolUse, context)) {
      if (event.type !== "result") continue;
      const text =
        typeof event.block.content === "string" ? event.block.content : JSON.stringify(event.block.content);
      process.stderr.write(
        `[${scenario}] ${tool.name}: ${event.isError ? "error: " : ""}${text.slice(0, 300)}\n`,
      );
    }
  }
}
await manager.close();
process.exit(failed ? 1 : 0);
