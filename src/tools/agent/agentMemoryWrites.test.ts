// Agent memory that can be written: a `memory` agent saves to its own MEMORY.md without an approval
// (nobody to ask, even), and a later run sees it in the agent's prompt. Everything else under the
// protected folders keeps asking.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scriptedAgent } from "../../agent/testing/harness.ts";
import { text, toolUse } from "../../agent/testing/script.ts";
import type { PermissionMode } from "../../permissions/types.ts";
import type { AuditRecord } from "../../pipeline/services.ts";
import type { Tool } from "../../tool/Tool.ts";
import { EditTool } from "../edit/EditTool.ts";
import { ReadTool } from "../read/ReadTool.ts";
import { WriteTool } from "../write/WriteTool.ts";
import { createAgentTool } from "./AgentTool.ts";
import { byPrompt, conversationText, routedScript, systemText } from "./testing.ts";

const base = mkdtempSync(join(tmpdir(), "keel-agent-memory-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let count = 0;

function project(memory: "project" | "user" | "local", agentTools = "Read, Write") {
  const root = join(base, `p${++count}`);
  const home = join(base, `h${count}`);
  mkdirSync(join(root, ".keel", "agents"), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(root, ".keel", "agents", "keeper.md"),
    `---\nname: keeper\ndescription: Keeps notes\ntools: ${agentTools}\nmemory: ${memory}\n---\nYou keep notes.\n`,
  );
  const tools = [
    ReadTool,
    WriteTool,
    EditTool,
    createAgentTool({ projectRoot: root, env: { KEEL_HOME: home } }),
  ];
  return { root, home, tools: tools as Tool[] };
}

/** The main loop asks the keeper; the keeper makes the given calls, then reports. */
async function runKeeper(
  world: ReturnType<typeof project>,
  calls: Array<{ name: string; input: Record<string, unknown> }>,
  mode: PermissionMode = "default",
) {
  const audit: AuditRecord[] = [];
  const script = routedScript([
    {
      name: "main",
      match: byPrompt("MAIN"),
      turns: [
        {
          blocks: [
            toolUse("Agent", { description: "notes", prompt: "KEEPER task", subagent_type: "keeper" }),
          ],
        },
        { blocks: [text("done")] },
      ],
    },
    {
      name: "keeper",
      match: byPrompt("KEEPER"),
      turns: [
        ...calls.map((call) => ({ blocks: [toolUse(call.name, call.input)] })),
        { blocks: [text("saved")] },
      ],
    },
  ]);
  const run = await scriptedAgent({
    protocol: "anthropic",
    script,
    tools: world.tools,
    session: { cwd: world.root, mode },
    services: { audit: { record: (entry) => audit.push(entry) } },
  });
  try {
    await run.run("MAIN task");
  } finally {
    await run.close();
  }
  return { script, audit, keeperAudit: audit.filter((entry) => entry.agentId !== undefined) };
}

const write = (file_path: string, content: string) => ({ name: "Write", input: { file_path, content } });

describe("agent memory that can be written", () => {
  it("a memory: project agent saves its MEMORY.md with nobody to ask, and the next run sees it in its prompt", async () => {
    const world = project("project");
    const memoryFile = join(world.root, ".keel", "agent-memory", "keeper", "MEMORY.md");
    const first = await runKeeper(world, [write(memoryFile, "- The build runs with `make all` (2026-11)\n")]);
    expect(readFileSync(memoryFile, "utf8")).toContain("make all");
    expect(first.keeperAudit[0]).toMatchObject({ tool: "Write", behavior: "allow", isError: false });
    expect(first.keeperAudit[0]!.decidedBy).toContain("agent-memory");
    expect(JSON.stringify(first.keeperAudit[0]!.decisionReason)).toContain("its own memory file");
    const second = await runKeeper(world, []);
    expect(systemText(second.script.requestsOf("keeper")[0]!)).toContain(
      "- The build runs with `make all` (2026-11)",
    );
  });

  it("a memory: user agent writes and reads topic files in ~/.keel/agent-memory, outside the working directories", async () => {
    const world = project("user");
    const dir = join(world.home, ".keel", "agent-memory", "keeper");
    const { keeperAudit } = await runKeeper(world, [
      write(join(dir, "builds.md"), "make all\n"),
      write(join(dir, "MEMORY.md"), "- builds.md: how to build\n"),
      { name: "Read", input: { file_path: join(dir, "builds.md") } },
    ]);
    expect(keeperAudit.map((entry) => entry.behavior)).toEqual(["allow", "allow", "allow"]);
    expect(readFileSync(join(dir, "MEMORY.md"), "utf8")).toBe("- builds.md: how to build\n");
  });

  it("a memory: local agent creates, reads and edits its MEMORY.md in .keel/agent-memory-local with nobody to ask", async () => {
    const world = project("local", "Read, Write, Edit");
    const memoryFile = join(world.root, ".keel", "agent-memory-local", "keeper", "MEMORY.md");
    const { keeperAudit } = await runKeeper(world, [
      write(memoryFile, "- tests: npm test\n"),
      { name: "Read", input: { file_path: memoryFile } },
      {
        name: "Edit",
        input: { file_path: memoryFile, old_string: "npm test", new_string: "npm test -- --run" },
      },
    ]);
    expect(keeperAudit.map((entry) => [entry.tool, entry.behavior, entry.isError])).toEqual([
      ["Write", "allow", false],
      ["Read", "allow", false],
      ["Edit", "allow", false],
    ]);
    expect(keeperAudit.every((entry) => entry.decidedBy.includes("agent-memory"))).toBe(true);
    expect(readFileSync(memoryFile, "utf8")).toBe("- tests: npm test -- --run\n");
    const second = await runKeeper(world, []);
    expect(systemText(second.script.requestsOf("keeper")[0]!)).toContain("- tests: npm test -- --run");
  });

  it("any other write under .keel still asks: settings, another agent's memory, non-Markdown, hidden files; the main loop too", async () => {
    const world = project("local");
    const own = join(world.root, ".keel", "agent-memory-local", "keeper");
    const others = [
      join(world.root, ".keel", "settings.json"),
      join(world.root, ".keel", "agent-memory-local", "other-agent", "MEMORY.md"),
      join(own, "run.sh"),
      join(own, ".hidden", "x.md"),
      join(world.root, ".keel", "agent-memory-local", "keeper.md"),
    ];
    const { keeperAudit, script } = await runKeeper(
      world,
      others.map((path) => write(path, "x")),
      "bypassPermissions",
    );
    expect(keeperAudit.map((entry) => entry.behavior)).toEqual(others.map(() => "deny"));
    expect(conversationText(script.requestsOf("keeper").at(-1)!)).toContain("protected");
    // The exemption belongs to the agent: the main loop writing the keeper's memory is asked (and refused here).
    const main = await scriptedAgent({
      protocol: "anthropic",
      script: [
        { blocks: [toolUse("Write", { file_path: join(own, "MEMORY.md"), content: "x" })] },
        { blocks: [text("ok")] },
      ],
      tools: world.tools,
      session: { cwd: world.root, mode: "bypassPermissions" },
    });
    try {
      const { events } = await main.run("write it");
      const result = events.find((event) => event.type === "tool_result");
      expect(result && result.type === "tool_result" && result.result.isError).toBe(true);
    } finally {
      await main.close();
    }
  });

  it("a symlink in the memory folder or on the way to it gets no exemption", async () => {
    const world = project("project");
    const outside = join(base, `outside${count}`);
    mkdirSync(join(outside, "keeper"), { recursive: true });
    mkdirSync(join(world.root, ".keel", "agent-memory"), { recursive: true });
    symlinkSync(join(outside, "keeper"), join(world.root, ".keel", "agent-memory", "keeper"));
    const { keeperAudit } = await runKeeper(
      world,
      [write(join(world.root, ".keel", "agent-memory", "keeper", "MEMORY.md"), "x")],
      "bypassPermissions",
    );
    expect(keeperAudit.map((entry) => entry.behavior)).toEqual(["deny"]);
  });

  it("deny rules still win over the exemption", async () => {
    const world = project("project");
    const memoryFile = join(world.root, ".keel", "agent-memory", "keeper", "MEMORY.md");
    const audit: AuditRecord[] = [];
    const script = routedScript([
      {
        name: "main",
        match: byPrompt("MAIN"),
        turns: [
          { blocks: [toolUse("Agent", { description: "n", prompt: "KEEPER", subagent_type: "keeper" })] },
          { blocks: [text("done")] },
        ],
      },
      {
        name: "keeper",
        match: byPrompt("KEEPER"),
        turns: [
          { blocks: [toolUse("Write", { file_path: memoryFile, content: "x" })] },
          { blocks: [text("ok")] },
        ],
      },
    ]);
    const run = await scriptedAgent({
      protocol: "anthropic",
      script,
      tools: world.tools,
      session: { cwd: world.root, deny: ["Edit(/.keel/**)"] },
      services: { audit: { record: (entry) => audit.push(entry) } },
    });
    try {
      await run.run("MAIN task");
    } finally {
      await run.close();
    }
    // The deny rule refuses it (already in the tool's validation, before the permission step).
    const keeper = audit.filter((entry) => entry.agentId !== undefined);
    expect(keeper[0]).toMatchObject({ isError: true, errorCode: "permission_denied" });
    expect(() => readFileSync(memoryFile)).toThrow();
  });
});
