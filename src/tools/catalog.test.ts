import { describe, expect, it } from "vitest";
import { ruleToolNameProblem } from "../permissions/matchers.ts";
import { builtinRuleNames, catalogEntry, loadToolsFor, TOOL_CATALOG } from "./catalog.ts";
import { builtinTools } from "./index.ts";

describe("the tool catalog", () => {
  it("names every built-in tool in builtinTools() order, with its aliases and rule families", async () => {
    const tools = builtinTools();
    expect(TOOL_CATALOG.map((entry) => entry.name)).toEqual(tools.map((tool) => tool.name));
    for (const [index, entry] of TOOL_CATALOG.entries()) {
      const tool = tools[index]!;
      expect(entry.aliases ?? [], entry.name).toEqual(tool.aliases ?? []);
      expect(entry.ruleNames ?? [entry.name], entry.name).toEqual(tool.permissionRuleNames ?? [tool.name]);
      // The loader gives the very tool builtinTools() holds.
      expect(await entry.load(), entry.name).toBe(tool);
    }
  });

  it("knows the rule names of every tool without loading them", () => {
    const tools = builtinTools();
    for (const name of ["Read", "Edit", "Task", "Agent", "Bash", "WebFetch", "NotebookEdit"])
      expect(ruleToolNameProblem(tools, name), name).toBeUndefined();
    expect(builtinRuleNames().has("Task")).toBe(true);
    expect(builtinRuleNames().has("Raed")).toBe(false);
    // A one-tool session still knows the others' names; a typo is still one.
    const read = tools.filter((tool) => tool.name === "Read");
    expect(ruleToolNameProblem(read, "Bash", builtinRuleNames())).toBeUndefined();
    expect(ruleToolNameProblem(read, "Raed", builtinRuleNames())).toMatch(/no tool is named "Raed".*Read/);
  });

  it("loads one tool for a call of it, and every tool where the call needs the others or the name is unknown", async () => {
    expect((await loadToolsFor("Read")).map((tool) => tool.name)).toEqual(["Read"]);
    expect((await loadToolsFor("Task")).map((tool) => tool.name)).toContain("Read");
    expect(catalogEntry("Task")?.name).toBe("Agent");
    for (const name of ["ToolSearch", "Skill", "Agent", "Raed", "mcp__server__tool"])
      expect((await loadToolsFor(name)).length, name).toBe(TOOL_CATALOG.length);
  });
});
