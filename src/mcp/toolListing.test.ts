// What MCP clients see of Keel's built-in tools: annotations that say what each tool does, titles that
// tell tools apart, and descriptions that promise only what works over MCP.
import { describe, expect, it } from "vitest";
import type { Tool } from "../tool/Tool.ts";
import { builtinTools } from "../tools/builtinTools.ts";
import { toMcpToolDefinition, toolAnnotations } from "./toolListing.ts";

const tools = builtinTools() as readonly Tool[];
const byName = (name: string) => tools.find((tool) => tool.name === name)!;

describe("MCP annotations of the built-in tools", () => {
  it.each([
    ["TodoWrite", false],
    ["TaskCreate", false],
    ["TaskUpdate", false],
    ["TaskGet", true],
    ["TaskList", true],
    ["Read", true],
    ["Glob", true],
    ["Grep", true],
    ["Write", false],
    ["Bash", false],
  ])("%s: readOnlyHint %s", (name, readOnly) => {
    expect(toolAnnotations(byName(name)).readOnlyHint).toBe(readOnly);
  });

  it.each([
    ["TaskCreate", false],
    ["TaskUpdate", true],
    ["TodoWrite", true],
    ["Write", true],
  ])("%s: destructiveHint %s (adding is not destroying; replacing or deleting is)", (name, destructive) => {
    expect(toolAnnotations(byName(name)).destructiveHint).toBe(destructive);
  });

  it("gives every tool its own title", async () => {
    const titles = tools.map((tool) => toolAnnotations(tool).title);
    expect(new Set(titles).size).toBe(titles.length);
    expect(toolAnnotations(byName("Glob")).title).toBe("Find files by name");
    expect(toolAnnotations(byName("Grep")).title).toBe("Search file contents");
    // Also as the tool's own title, which clients since 2025-06-18 show first.
    expect((await toMcpToolDefinition(byName("Glob"), tools, "default")).title).toBe("Find files by name");
  });

  it("describes Read without the unchanged-file stub, which needs the conversation", async () => {
    const read = byName("Read");
    const overMcp = await toMcpToolDefinition(read, tools, "default");
    const inAgent = await read.prompt({ tools });
    expect(inAgent).toMatch(/short notice/);
    expect(overMcp.description).not.toMatch(/short notice/);
    expect(overMcp.description!.split("\n").length).toBe(inAgent.split("\n").length - 1);
  });
});
