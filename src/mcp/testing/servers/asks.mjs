// A real MCP server whose tool asks the person for input (elicitation, form mode) and reports the answer.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const server = new Server({ name: "asks", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: "signup", description: "Asks for a name.", inputSchema: { type: "object" } }],
}));
server.setRequestHandler(CallToolRequestSchema, async (_request, extra) => {
  const answer = await server.elicitInput(
    {
      message: "Who is signing up?",
      requestedSchema: {
        type: "object",
        properties: {
          name: { type: "string", title: "Name" },
          seats: { type: "integer", title: "Seats", default: 3 },
          plan: { type: "string", title: "Plan", enum: ["free", "pro"] },
        },
        required: ["name"],
      },
    },
    { relatedRequestId: extra.requestId },
  );
  return { content: [{ type: "text", text: JSON.stringify(answer) }] };
});
await server.connect(new StdioServerTransport());
