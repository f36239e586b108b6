// `import { createKeelMcpServer, connectMcpServers } from "keel/mcp"`: MCP both ways, as a library.
export * from "./client.ts";
export * from "./config.ts";
export * from "./server.ts";
