// A small real MCP server for client tests: a tool with a $ref/$defs schema, one that crashes the
// process, one slower than a short timeout, and a pid tool to tell restarts apart.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const tools = [
  {
    name: "greet",
    description: "Greets a person.",
    inputSchema: {
      type: "object",
      properties: { person: { $ref: "#/$defs/Person" } },
      required: ["person"],
      $defs: {
        Person: {
          type: "object",
          properties: { name: { type: "string", minLength: 1 }, age: { type: "integer", minimum: 0 } },
          required: ["name"],
        },
      },
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: "pid",
    description: "The server's process id.",
    inputSchema: { type: "object" },
    annotations: { readOnlyHint: true },
  },
  {
    name: "crash",
    description: "Exits the server.",
    inputSchema: { type: "object" },
    annotations: { destructiveHint: false },
  },
  { name: "slow", description: "Answers after 5 s.", inputSchema: { type: "object" } },
  { name: "fail", description: "Always reports an error.", inputSchema: { type: "object" } },
];

const server = new Server({ name: "scripted", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const args = request.params.arguments ?? {};
  switch (request.params.name) {
    case "greet":
      return { content: [{ type: "text", text: `Hello, ${args.person.name}!` }] };
    case "pid":
      return { content: [{ type: "text", text: String(process.pid) }] };
    case "crash":
      setImmediate(() => process.exit(7));
      return new Promise(() => {});
    case "slow":
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, 5_000);
        extra.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          reject(new Error("cancelled"));
        });
      });
      return { content: [{ type: "text", text: "finally" }] };
    case "fail":
      return { content: [{ type: "text", text: "the widget is broken" }], isError: true };
    default:
      throw new Error(`unknown tool ${request.params.name}`);
  }
});
await server.connect(new StdioServerTransport());
// --linger: keeps running after its input closes, as some servers do (only a kill ends it).
if (process.argv.includes("--linger")) setInterval(() => {}, 1_000);
