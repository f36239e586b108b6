// The server in the test's own process, on the SDK's in-memory transport: for what the session keeps
// between calls (nothing per call) and when the audit record is written.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import type { AuditRecord } from "../pipeline/services.ts";
import { echoTool } from "../pipeline/testing/tools.ts";
import { buildPermissionContext } from "../tool/createContext.ts";
import { createKeelMcpServer } from "./server.ts";
import { createMcpSessionContext } from "./sessionContext.ts";

describe("keel mcp server session", () => {
  it("keeps no per-call decision after the call, and audits each call once its response is out", async () => {
    const tools = [echoTool()];
    const context = createMcpSessionContext(tools, buildPermissionContext({ allow: ["Echo"] }));
    const audited: AuditRecord[] = [];
    const server = createKeelMcpServer({
      tools,
      context,
      services: { audit: { record: (entry) => audited.push(entry) } },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "test", version: "1" });
    await client.connect(clientSide);
    for (const text of ["a", "b", "c"]) {
      const result = await client.callTool({ name: "Echo", arguments: { text } });
      expect(result.isError).toBeFalsy();
    }
    expect(context.toolDecisions?.size).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(audited.map((entry) => entry.inputSummary)).toEqual([
      '{"text":"a"}',
      '{"text":"b"}',
      '{"text":"c"}',
    ]);
    await client.close();
  });
});
