import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { cliProviderArgs, startServer } from "../../agent/testing/harness.ts";
import { text, toolUse } from "../../agent/testing/script.ts";
import type { ScriptedServer } from "../../agent/testing/server.ts";
import { keelWorld, runKeel } from "../../cli/testing/keelProcess.ts";
import { buildTool, type Tool } from "../../tool/Tool.ts";
import { ReadTool } from "../read/ReadTool.ts";
import { deferMcpTools, parseToolSearchSetting } from "./deferMcpTools.ts";
import { ToolSearchTool } from "./ToolSearchTool.ts";

const REPO = new URL("../../../", import.meta.url).pathname;

describe("ENABLE_TOOL_SEARCH", () => {
  it.each([
    [undefined, { kind: "auto", percent: 10 }],
    ["auto", { kind: "auto", percent: 10 }],
    ["auto:5", { kind: "auto", percent: 5 }],
    ["true", { kind: "always" }],
    ["1", { kind: "always" }],
    ["false", { kind: "never" }],
    ["off", { kind: "never" }],
  ])("%s -> %j", (value, mode) => {
    expect(parseToolSearchSetting(value)).toEqual({ mode });
  });

  it("reports a value it cannot read and keeps the default", () => {
    const parsed = parseToolSearchSetting("sometimes");
    expect(parsed.mode).toEqual({ kind: "auto", percent: 10 });
    expect(parsed.problem).toMatch(/not auto, auto:<percent>, true or false/);
  });
});

function mcpTool(name: string, descriptionChars: number): Tool {
  return buildTool<Record<string, unknown>, string>({
    name: `mcp__big__${name}`,
    inputSchema: z.looseObject({}),
    inputJSONSchema: { type: "object", properties: { q: { type: "string" } } },
    isMcp: true,
    mcpInfo: { serverName: "big", toolName: name },
    maxResultSizeChars: 1000,
    description: () => name,
    prompt: () => "x".repeat(descriptionChars),
    call: async () => ({ data: "ok" }),
  }) as unknown as Tool;
}

describe("deferring MCP tools", () => {
  const builtins = [ReadTool, ToolSearchTool] as unknown as Tool[];
  const defer = (tools: Tool[], contextWindow: number, value?: string) =>
    deferMcpTools(tools, { contextWindow, mode: parseToolSearchSetting(value).mode });
  const deferredNames = (tools: Tool[]) => tools.filter((tool) => tool.shouldDefer).map((tool) => tool.name);

  it("keeps MCP tools loaded while they take less than 10% of the context", async () => {
    const decision = await defer([...builtins, mcpTool("a", 3_000)], 200_000);
    expect(decision.deferred).toBe(false);
    expect(decision.threshold).toBe(20_000);
    expect(deferredNames(decision.tools)).toEqual([]);
  });

  it("defers every MCP tool (and only those) once they pass the share", async () => {
    const tools = [...builtins, mcpTool("a", 50_000), mcpTool("b", 40_000)];
    const decision = await defer(tools, 200_000);
    expect(decision.tokens).toBeGreaterThan(20_000);
    expect(deferredNames(decision.tools)).toEqual(["mcp__big__a", "mcp__big__b"]);
    expect((await defer(tools, 200_000, "auto:50")).deferred).toBe(false);
  });

  it("follows the setting when it forces deferral on or off", async () => {
    expect((await defer([...builtins, mcpTool("a", 10)], 200_000, "true")).deferred).toBe(true);
    expect((await defer([...builtins, mcpTool("a", 90_000)], 200_000, "false")).deferred).toBe(false);
  });

  it("never defers without ToolSearch to find the tools again", async () => {
    expect((await defer([ReadTool as unknown as Tool, mcpTool("a", 90_000)], 200_000, "true")).deferred).toBe(
      false,
    );
  });
});

describe("a deferred MCP tool in keel run", () => {
  const servers: ScriptedServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it("is found with ToolSearch and called in the same turn", async () => {
    const world = keelWorld();
    world.env.ENABLE_TOOL_SEARCH = "true";
    const config = join(world.project, "servers.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          scripted: { command: process.execPath, args: [join(REPO, "src/mcp/testing/servers/scripted.mjs")] },
        },
      }),
    );
    const model = await startServer("anthropic", [
      { blocks: [toolUse("ToolSearch", { query: "select:mcp__scripted__greet" })] },
      { blocks: [toolUse("mcp__scripted__greet", { person: { name: "Ada" } })] },
      { blocks: [text("Greeted.")] },
    ]);
    servers.push(model);
    const { code, stdout, stderr } = await runKeel(
      [
        "run",
        ...cliProviderArgs(model),
        ...["--mcp-config", config, "--allow", "mcp__scripted", "--output-format", "json"],
        "greet Ada",
      ],
      world,
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ result: "Greeted.", num_turns: 3 });
    const offered = (index: number) =>
      (model.requests[index]!.body.tools as { name: string }[]).map((tool) => tool.name);
    // Before the search: offered by name only (in the system prompt), not as a tool.
    expect(offered(0)).toContain("ToolSearch");
    expect(offered(0)).not.toContain("mcp__scripted__greet");
    expect(JSON.stringify(model.requests[0]!.body.system)).toContain("mcp__scripted__greet");
    // After it: a tool the model can call, and the call went through to the server.
    expect(offered(1)).toContain("mcp__scripted__greet");
    expect(JSON.stringify(model.requests[2]!.body.messages)).toContain("Hello, Ada!");
  });
});
