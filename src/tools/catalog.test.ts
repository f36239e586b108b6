import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ruleToolNameProblem } from "../permissions/matchers.ts";
import { pathRuleMatcher } from "../permissions/pathRules.ts";
import type { Tool } from "../tool/Tool.ts";
import { ruleNamesOf, type ToolMeta } from "../tool/toolMeta.ts";
import { builtinTools } from "./builtinTools.ts";
import {
  builtinRuleNames,
  builtinRuleNamesWhere,
  builtinToolNames,
  catalogEntry,
  loadAllBuiltinTools,
  loadToolsFor,
} from "./catalog.ts";
import { BUILTIN_TOOLS } from "./index.ts";

/** Every fact a meta can hold: the compiler fails here when ToolMeta gains one the test does not compare. */
const META_KEYS = Object.keys({
  name: true,
  aliases: true,
  permissionRuleNames: true,
  pathAccess: true,
  searchesFolder: true,
  usesToolPool: true,
  mainConversationOnly: true,
  judgesAgentCalls: true,
} satisfies Record<keyof ToolMeta, true>) as Array<keyof ToolMeta>;

/** Tool folders whose tools are not built-ins: the MCP client adds them beside a server's resources. */
const ADDED_BY_MCP_CLIENT = ["list-mcp-resources", "read-mcp-resource"];

const TOOLS_DIR = import.meta.dirname;
const metas = BUILTIN_TOOLS.map((registration) => registration.meta);
const names = (test: (meta: ToolMeta) => boolean) => builtinToolNames(test);

describe("the built-in tools' metas", () => {
  it("are their tools' facts: each registration loads the tool builtinTools() holds, with the same facts", async () => {
    const tools = builtinTools();
    expect(tools.map((tool) => tool.name)).toEqual(metas.map((meta) => meta.name));
    for (const [index, { meta, load }] of BUILTIN_TOOLS.entries()) {
      const tool = await load();
      expect(tool, meta.name).toBe(tools[index]);
      for (const key of META_KEYS) expect(tool[key], `${meta.name}.${key}`).toEqual(meta[key]);
    }
  });

  it("give every name and alias to one tool only", () => {
    const all = metas.flatMap((meta) => [meta.name, ...(meta.aliases ?? [])]);
    expect(new Set(all).size).toBe(all.length);
  });

  it("cover every tool folder: a folder with a tool is registered (or its tool is the MCP client's)", async () => {
    const registered = new Set<unknown>(metas);
    const folders = readdirSync(TOOLS_DIR, { withFileTypes: true }).filter(
      (entry) =>
        entry.isDirectory() &&
        readdirSync(join(TOOLS_DIR, entry.name)).some((file) => /^[A-Za-z]+Tool\.ts$/.test(file)),
    );
    expect(folders.length).toBeGreaterThan(metas.length);
    for (const { name: folder } of folders) {
      if (ADDED_BY_MCP_CLIENT.includes(folder)) continue;
      const metaFile = join(TOOLS_DIR, folder, "meta.ts");
      expect(existsSync(metaFile), `${folder}/meta.ts`).toBe(true);
      const exported = Object.values(await import(metaFile));
      expect(
        exported.some((value) => registered.has(value)),
        `${folder}'s meta is registered in tools/index.ts`,
      ).toBe(true);
    }
  });

  it("declare path access exactly where the tool reads rules as paths, reads with Read rules and writes with Edit rules", () => {
    for (const tool of builtinTools()) {
      const ruleNames = ruleNamesOf(tool);
      expect(tool.pathAccess !== undefined, tool.name).toBe(tool.ruleMatcher === pathRuleMatcher);
      if (tool.pathAccess === "read") expect(ruleNames, tool.name).toEqual(["Read"]);
      if (tool.pathAccess === "write") expect(ruleNames, tool.name).toContain("Edit");
      if (tool.pathAccess === undefined) expect(ruleNames, tool.name).not.toContain("Edit");
    }
  });

  it.each([
    [
      "pathAccess read",
      (meta: ToolMeta) => meta.pathAccess === "read",
      ["Read", "Glob", "Grep", "LS", "LSP"],
    ],
    [
      "pathAccess write",
      (meta: ToolMeta) => meta.pathAccess === "write",
      ["Write", "Edit", "MultiEdit", "NotebookEdit"],
    ],
    // The tools src/tools/search-shared/denyRules.test.ts shows leaving out what Read deny rules cover.
    ["searchesFolder", (meta: ToolMeta) => meta.searchesFolder === true, ["Glob", "Grep", "LS"]],
    ["usesToolPool", (meta: ToolMeta) => meta.usesToolPool === true, ["Skill", "ToolSearch", "Agent"]],
    [
      "mainConversationOnly",
      (meta: ToolMeta) => meta.mainConversationOnly === true,
      ["EnterPlanMode", "ExitPlanMode"],
    ],
    [
      "judgesAgentCalls",
      (meta: ToolMeta) => meta.judgesAgentCalls === true,
      [
        "Read",
        "Write",
        "Edit",
        "MultiEdit",
        "NotebookEdit",
        "Glob",
        "Grep",
        "LS",
        "Bash",
        "WebFetch",
        "WebSearch",
      ],
    ],
  ] as const)("%s: the tools that say so", (_fact, test, expected) => {
    expect(names(test)).toEqual(expected);
  });

  it("give the rule families of the tools that pass a test, each once", () => {
    expect(builtinRuleNamesWhere((meta) => meta.pathAccess === "write")).toEqual([
      "Edit",
      "Write",
      "MultiEdit",
      "NotebookEdit",
    ]);
    expect(builtinRuleNamesWhere((meta) => meta.name === "Agent")).toEqual(["Agent", "Task"]);
    expect(builtinRuleNamesWhere((meta) => meta.name === "Bash")).toEqual(["Bash"]);
    expect(builtinRuleNamesWhere(() => false)).toEqual([]);
  });
});

describe("the tool catalog", () => {
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
    expect(catalogEntry("Task")?.meta.name).toBe("Agent");
    expect(catalogEntry("Raed")).toBeUndefined();
    for (const name of ["ToolSearch", "Skill", "Agent", "Raed", "mcp__server__tool"])
      expect((await loadToolsFor(name)).length, name).toBe(BUILTIN_TOOLS.length);
    const all: Tool[] = await loadAllBuiltinTools();
    expect(all).toEqual(builtinTools());
  });
});
