// The protocol floor for bench/mcp.bench.ts: the official SDK's McpServer on its own stdio transport, in
// the same Node, with one tool that returns a text held in memory (no file, no checks, no audit). What
// an MCP server cannot go below for a call that answers that text.
// Usage: node bench/floorServer.ts <file whose text the tool returns>
import { readFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import * as z from "zod";

const source = process.argv[2];
if (!source) {
  process.stderr.write("usage: node bench/floorServer.ts <text file>\n");
  process.exit(2);
}
const text = readFileSync(source, "utf8");

const server = new McpServer({ name: "floor", version: "1" });
server.registerTool(
  "read_from_memory",
  { description: "Returns the same text on every call", inputSchema: { file_path: z.string() } },
  async () => ({ content: [{ type: "text", text }] }),
);
await server.connect(new StdioServerTransport());
