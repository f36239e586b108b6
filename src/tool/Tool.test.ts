import { describe, expect, it } from "vitest";
import * as z from "zod";
import { getEmptyToolPermissionContext, updatePermissionContext } from "./context.ts";
import { ToolDefinitionError } from "./errors.ts";
import {
  assembleToolPool,
  filterToolProgressMessages,
  findToolByName,
  partitionDeferredTools,
  toolMatchesName,
} from "./registry.ts";
import { toolInputJSONSchema } from "./schema.ts";
import { buildTool, TOOL_DEFAULTS, type ToolDef } from "./Tool.ts";

const minimal: ToolDef<{ path: string }> = {
  name: "Minimal",
  inputSchema: z.object({ path: z.string().describe("where") }),
  maxResultSizeChars: 1000,
  description: () => "minimal",
  prompt: () => "A minimal tool.",
  call: async () => ({ data: "ok" }),
};

describe("buildTool", () => {
  it("fills in the fail-closed defaults", async () => {
    const tool = buildTool(minimal);
    const input = { path: "x" };
    expect(tool.isEnabled()).toBe(true);
    expect(tool.isConcurrencySafe(input)).toBe(false);
    expect(tool.isReadOnly(input)).toBe(false);
    expect(tool.isDestructive(input)).toBe(false);
    expect(tool.interruptBehavior()).toBe("block");
    expect(tool.userFacingName(input)).toBe("Minimal");
    expect(tool.toAutoClassifierInput(input)).toBe("");
    // "No objection from the tool": the engine still decides, and without a rule that means ask.
    expect(await tool.checkPermissions(input, undefined as never)).toEqual({
      behavior: "passthrough",
      updatedInput: input,
    });
    expect(TOOL_DEFAULTS.isConcurrencySafe()).toBe(false);
  });

  it("keeps what the definition declares", () => {
    const tool = buildTool({
      ...minimal,
      isReadOnly: true,
      isConcurrencySafe: (input: { path: string }) => input.path === "safe",
    });
    expect(tool.isReadOnly({ path: "a" })).toBe(true);
    expect(tool.isConcurrencySafe({ path: "safe" })).toBe(true);
    expect(tool.isConcurrencySafe({ path: "other" })).toBe(false);
  });

  it.each(["name", "call", "description", "prompt", "maxResultSizeChars", "inputSchema"] as const)(
    "rejects a definition without %s",
    (member) => {
      const def = { ...minimal } as Record<string, unknown>;
      delete def[member];
      expect(() => buildTool(def as unknown as ToolDef<{ path: string }>)).toThrow(ToolDefinitionError);
      expect(() => buildTool(def as unknown as ToolDef<{ path: string }>)).toThrow(member);
    },
  );

  it("flags a tool declared both read-only and destructive at build time", () => {
    expect(() => buildTool({ ...minimal, isReadOnly: true, isDestructive: true })).toThrow(
      /read-only and destructive/,
    );
  });

  it("rejects bad names, budgets and aliases", () => {
    expect(() => buildTool({ ...minimal, name: "has space" })).toThrow(/name/);
    expect(() => buildTool({ ...minimal, maxResultSizeChars: 0 })).toThrow(/maxResultSizeChars/);
    expect(() => buildTool({ ...minimal, aliases: ["Minimal"] })).toThrow(/alias/);
    expect(() => buildTool({ ...minimal, call: "nope" as never })).toThrow(/function/);
  });

  it("returns a frozen tool", () => {
    expect(Object.isFrozen(buildTool(minimal))).toBe(true);
  });
});

describe("registry", () => {
  const a = buildTool({ ...minimal, name: "Alpha", aliases: ["A"] });
  const b = buildTool({ ...minimal, name: "Beta", aliases: ["Alpha2"] });
  const mcp = buildTool({
    ...minimal,
    name: "mcp__srv__Alpha",
    isMcp: true,
    mcpInfo: { serverName: "srv", toolName: "Alpha" },
  });

  it("finds tools by name, then alias", () => {
    expect(findToolByName([a, b], "A")).toBe(a);
    expect(findToolByName([a, b], "Beta")).toBe(b);
    expect(findToolByName([a, b], "Gamma")).toBeUndefined();
    expect(toolMatchesName(a, "A")).toBe(true);
    expect(toolMatchesName(a, "Beta")).toBe(false);
  });

  it("a name beats another tool's alias", () => {
    const shadow = buildTool({ ...minimal, name: "Shadow", aliases: ["Beta"] });
    expect(findToolByName([shadow, b], "Beta")).toBe(b);
  });

  it("assembles a pool: deduped, blanket-denied tools hidden, built-ins first", () => {
    const dup = buildTool({ ...minimal, name: "Alpha" });
    const disabled = buildTool({ ...minimal, name: "Off", isEnabled: () => false });
    const context = updatePermissionContext(getEmptyToolPermissionContext("/p"), {
      alwaysDenyRules: { user: ["Beta"] },
    });
    expect(assembleToolPool([b, a, disabled], [dup, mcp], context).map((t) => t.name)).toEqual([
      "Alpha",
      "mcp__srv__Alpha",
    ]);
    const denyServer = updatePermissionContext(getEmptyToolPermissionContext("/p"), {
      alwaysDenyRules: { user: ["mcp__srv"] },
    });
    expect(assembleToolPool([a], [mcp], denyServer).map((t) => t.name)).toEqual(["Alpha"]);
    const denyContent = updatePermissionContext(getEmptyToolPermissionContext("/p"), {
      alwaysDenyRules: { user: ["Alpha(x)"] },
    });
    expect(assembleToolPool([a], [], denyContent).map((t) => t.name)).toEqual(["Alpha"]);
  });

  it("splits deferred tools", () => {
    const deferred = buildTool({ ...minimal, name: "Later", shouldDefer: true, searchHint: "later things" });
    const pinned = buildTool({ ...minimal, name: "Pinned", shouldDefer: true, alwaysLoad: true });
    const split = partitionDeferredTools([a, deferred, pinned]);
    expect(split.loaded.map((t) => t.name)).toEqual(["Alpha", "Pinned"]);
    expect(split.deferred.map((t) => t.name)).toEqual(["Later"]);
    expect(partitionDeferredTools([deferred], new Set(["Later"])).loaded).toHaveLength(1);
  });

  it("filters tool progress from hook progress", () => {
    const messages = [
      { type: "progress" as const, toolUseId: "1", source: "tool" as const, data: 1 },
      { type: "progress" as const, toolUseId: "1", source: "hook" as const, data: 2 },
    ];
    expect(filterToolProgressMessages(messages).map((m) => m.data)).toEqual([1]);
  });
});

describe("schema conversion", () => {
  it("converts zod to JSON Schema with zod's own converter", () => {
    const schema = toolInputJSONSchema(buildTool(minimal));
    expect(schema).toMatchObject({
      type: "object",
      properties: { path: { type: "string", description: "where" } },
      required: ["path"],
    });
    expect(schema.$schema).toBeUndefined();
  });

  it("prefers a raw JSON Schema when the tool has one", () => {
    const raw = {
      type: "object",
      properties: { q: { $ref: "#/$defs/Q" } },
      $defs: { Q: { type: "string" } },
    };
    expect(toolInputJSONSchema(buildTool({ ...minimal, inputJSONSchema: raw }))).toBe(raw);
  });
});

describe("permission context", () => {
  it("is deeply immutable", () => {
    const context = updatePermissionContext(getEmptyToolPermissionContext("/p"), {
      alwaysAllowRules: { user: ["Read"] },
    });
    expect(Object.isFrozen(context)).toBe(true);
    expect(Object.isFrozen(context.alwaysAllowRules)).toBe(true);
    expect(Object.isFrozen(context.alwaysAllowRules.user)).toBe(true);
    expect(() => (context.alwaysAllowRules.user as string[]).push("Bash")).toThrow();
  });
});
