import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROTOCOLS, scriptedAgent } from "../../agent/testing/harness.ts";
import { type ScriptTurn, text, toolUse } from "../../agent/testing/script.ts";
import { commandHookRunner } from "../../hooks/testing.ts";
import type { ApprovalRequest, AuditRecord, PipelineServices } from "../../pipeline/services.ts";
import type { Tool } from "../../tool/Tool.ts";
import { GlobTool } from "../glob/GlobTool.ts";
import { ReadTool } from "../read/ReadTool.ts";
import { SendMessageTool } from "../send-message/SendMessageTool.ts";
import { TaskOutputTool } from "../task-output/TaskOutputTool.ts";
import { TaskStopTool } from "../task-stop/TaskStopTool.ts";
import { WriteTool } from "../write/WriteTool.ts";
import { createAgentTool } from "./AgentTool.ts";
import { byPrompt, conversationText, routedScript, systemText, toolNames } from "./testing.ts";

const base = mkdtempSync(join(tmpdir(), "keel-agent-tool-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let count = 0;

function project(): { root: string; home: string; tools: Tool[] } {
  const root = join(base, `p${++count}`);
  const home = join(base, `h${count}`);
  mkdirSync(root, { recursive: true });
  mkdirSync(home, { recursive: true });
  const agent = createAgentTool({ projectRoot: root, env: { KEEL_HOME: home } });
  const tools = [
    ReadTool,
    WriteTool,
    GlobTool,
    agent,
    TaskOutputTool,
    TaskStopTool,
    SendMessageTool,
  ] as Tool[];
  return { root, home, tools };
}

const ask = (prompt: string, extra: Record<string, unknown> = {}) =>
  toolUse("Agent", { description: "a sub-task", prompt, ...extra });

/** MAIN makes one Agent call (`call`, whose prompt names CHILD) then says "done"; CHILD plays `childTurns`. */
function mainAsksChild(call: ReturnType<typeof ask>, childTurns: ScriptTurn[]) {
  return routedScript([
    { name: "main", match: byPrompt("MAIN"), turns: [{ blocks: [call] }, { blocks: [text("done")] }] },
    { name: "child", match: byPrompt("CHILD"), turns: childTurns },
  ]);
}

/** MAIN asks CHILD to write out.txt in `root`. */
const childWritesScript = (root: string) =>
  mainAsksChild(ask("CHILD write"), [
    { blocks: [toolUse("Write", { file_path: join(root, "out.txt"), content: "x" })] },
    { blocks: [text("refused")] },
  ]);

describe.each(PROTOCOLS)("Agent tool in the foreground (%s)", (protocol) => {
  it("runs the sub-agent's loop and returns its report with a usage summary; its calls carry its id", async () => {
    const { root, tools } = project();
    writeFileSync(join(root, "notes.txt"), "the answer is 42\n");
    const script = mainAsksChild(ask("CHILD read notes.txt"), [
      { blocks: [toolUse("Read", { file_path: join(root, "notes.txt") })] },
      { blocks: [text("child report: 42")] },
    ]);
    const audit: AuditRecord[] = [];
    const run = await scriptedAgent({
      protocol,
      script,
      tools,
      session: { cwd: root },
      services: { audit: { record: (entry) => audit.push(entry) } },
    });
    try {
      const { outcome } = await run.run("MAIN task");
      expect(outcome.reason).toBe("completed");
      expect(outcome.text).toBe("done");
      const [first, second] = script.requestsOf("child");
      expect(systemText(first!)).toContain("You are a sub-agent of Keel");
      expect(toolNames(first!)).toEqual(toolNames(script.requestsOf("main")[0]!));
      expect(conversationText(second!)).toContain("the answer is 42");
      const report = conversationText(script.requestsOf("main")[1]!);
      expect(report).toContain("child report: 42");
      expect(report).toMatch(/agent_[0-9a-f]{8} \(general-purpose, test-model\) · 2 turns · 1 tool call · /);
      const read = audit.find((entry) => entry.tool === "Read");
      expect(read?.agentId).toMatch(/^agent_[0-9a-f]{8}$/);
      expect(audit.find((entry) => entry.tool === "Agent")?.agentId).toBeUndefined();
      // What the sub-agent spent counts for the session.
      expect(run.agent.usage.outputTokens).toBe(4 * 20);
    } finally {
      await run.close();
    }
  });
});

describe("Agent tool: the sub-agent's model", () => {
  it.each([
    ["anthropic", "haiku", "claude-haiku-4-5"],
    ["openai", "haiku", "test-model"],
    ["openai", "gpt-small", "gpt-small"],
    ["anthropic", undefined, "test-model"],
  ] as const)("%s, model %s -> %s", async (protocol, model, expected) => {
    const { root, tools } = project();
    const script = mainAsksChild(ask("CHILD", model ? { model } : {}), [{ blocks: [text("ok")] }]);
    const run = await scriptedAgent({ protocol, script, tools, session: { cwd: root } });
    try {
      await run.run("MAIN task");
      expect(script.requestsOf("child")[0]!.body.model).toBe(expected);
    } finally {
      await run.close();
    }
  });
});

describe("Agent tool: permissions, types, depth, hooks", () => {
  it.each(["Agent(Explore)", "Task(Explore)"])(
    "a %s deny rule stops the call in the pipeline",
    async (rule) => {
      const { root, tools } = project();
      const script = mainAsksChild(ask("CHILD explore", { subagent_type: "Explore" }), []);
      const run = await scriptedAgent({
        protocol: "anthropic",
        script,
        tools,
        session: { cwd: root, deny: [rule] },
      });
      try {
        await run.run("MAIN task");
        expect(script.requestsOf("child")).toHaveLength(0);
        expect(conversationText(script.requestsOf("main")[1]!)).toContain(rule);
      } finally {
        await run.close();
      }
    },
  );

  it("without a prompter, a sub-agent's call that needs approval is refused", async () => {
    const { root, tools } = project();
    const script = childWritesScript(root);
    const run = await scriptedAgent({ protocol: "anthropic", script, tools, session: { cwd: root } });
    try {
      await run.run("MAIN task");
      expect(conversationText(script.requestsOf("child")[1]!)).toContain(
        "It needs approval, and nobody can give it in this session",
      );
      expect(existsSync(join(root, "out.txt"))).toBe(false);
    } finally {
      await run.close();
    }
  });

  it("asks for a sub-agent's call go to the session's prompter, with the sub-agent's id", async () => {
    const { root, tools } = project();
    const asked: ApprovalRequest[] = [];
    const services: PipelineServices = {
      prompter: {
        name: "test",
        ask: async (request) => {
          asked.push(request);
          return { behavior: "deny", reason: "not now" };
        },
      },
    };
    const script = childWritesScript(root);
    const run = await scriptedAgent({
      protocol: "anthropic",
      script,
      tools,
      services,
      session: { cwd: root },
    });
    try {
      await run.run("MAIN task");
      expect(asked.map((request) => [request.tool.name, request.context.agentId])).toEqual([
        ["Write", expect.stringMatching(/^agent_/)],
      ]);
      expect(conversationText(script.requestsOf("child")[1]!)).toContain("not now");
    } finally {
      await run.close();
    }
  });

  it("gives a type from a file only its listed tools, its prompt and its memory; plan mode makes it read-only", async () => {
    const { root, tools } = project();
    mkdirSync(join(root, ".keel", "agents"), { recursive: true });
    writeFileSync(
      join(root, ".keel", "agents", "reader.md"),
      "---\nname: reader\ndescription: Reads files\ntools: Read, Write\nmodel: reader-model-1\nmemory: project\npermissionMode: plan\n---\nYou are READER-PROMPT.\n",
    );
    mkdirSync(join(root, ".keel", "agent-memory", "reader"), { recursive: true });
    writeFileSync(join(root, ".keel", "agent-memory", "reader", "MEMORY.md"), "- remembered XYZZY\n");
    const script = routedScript([
      {
        name: "main",
        match: byPrompt("MAIN"),
        turns: [
          {
            blocks: [
              ask("CHILD-R", { subagent_type: "reader" }),
              ask("CHILD-E", { subagent_type: "Explore" }),
            ],
          },
          { blocks: [text("done")] },
        ],
      },
      {
        name: "reader",
        match: byPrompt("CHILD-R"),
        turns: [
          { blocks: [toolUse("Write", { file_path: join(root, "x.txt"), content: "x" })] },
          { blocks: [text("ok")] },
        ],
      },
      { name: "explore", match: byPrompt("CHILD-E"), turns: [{ blocks: [text("found")] }] },
    ]);
    const run = await scriptedAgent({
      protocol: "openai",
      script,
      tools,
      session: { cwd: root, mode: "acceptEdits" },
    });
    try {
      await run.run("MAIN task");
      const agentSpec = (
        script.requestsOf("main")[0]!.body.tools as Array<{ function: { name: string; description: string } }>
      ).find((tool) => tool.function.name === "Agent");
      expect(agentSpec?.function.description).toContain(
        "- reader: Reads files (tools: Read, Write; read-only)",
      );
      const [reader, readerAfter] = script.requestsOf("reader");
      expect(toolNames(reader!)).toEqual(["Read", "Write"]);
      expect(reader!.body.model).toBe("reader-model-1");
      expect(systemText(reader!)).toContain("You are READER-PROMPT.");
      expect(systemText(reader!)).toContain("remembered XYZZY");
      expect(conversationText(readerAfter!)).toContain("plan mode allows read-only tools only");
      expect(toolNames(script.requestsOf("explore")[0]!)).toEqual(["Read", "Glob"]);
    } finally {
      await run.close();
    }
  });

  it("nests sub-agents three levels deep and no deeper", async () => {
    const { root, tools } = project();
    const level = (n: number) => ({
      name: `level${n}`,
      match: byPrompt(`LEVEL-${n}`),
      turns:
        n < 3
          ? [{ blocks: [ask(`LEVEL-${n + 1}`)] }, { blocks: [text(`level ${n} done`)] }]
          : [{ blocks: [text("level 3 done")] }],
    });
    const script = routedScript([
      {
        name: "main",
        match: byPrompt("MAIN"),
        turns: [{ blocks: [ask("LEVEL-1")] }, { blocks: [text("done")] }],
      },
      level(1),
      level(2),
      level(3),
    ]);
    const run = await scriptedAgent({ protocol: "anthropic", script, tools, session: { cwd: root } });
    try {
      await run.run("MAIN task");
      expect(toolNames(script.requestsOf("level2")[0]!)).toContain("Agent");
      expect(toolNames(script.requestsOf("level3")[0]!)).not.toContain("Agent");
      expect(conversationText(script.requestsOf("level2")[1]!)).toContain("level 3 done");
      expect(conversationText(script.requestsOf("main")[1]!)).toContain("level 1 done");
    } finally {
      await run.close();
    }
    const deep = await scriptedAgent({
      protocol: "anthropic",
      script: [],
      tools,
      session: { cwd: root },
      agent: { subagent: { depth: 3, agentId: "agent_00000003" } },
    });
    try {
      const agentTool = tools.find((tool) => tool.name === "Agent")!;
      const verdict = await agentTool.validateInput!({ description: "d", prompt: "p" }, deep.agent.context);
      expect(verdict).toMatchObject({ result: false, errorCode: "not_allowed" });
      expect(verdict.result === false && verdict.message).toContain("at most 3 levels");
    } finally {
      await deep.close();
    }
  });

  it("runs SubagentStop hooks when the sub-agent would stop; a block keeps it working", async () => {
    const { root, tools } = project();
    const log = join(root, "subagent-stop.log");
    const command = `input=$(cat); printf '%s\\n' "$input" >> '${log}'; case "$input" in *'"stop_hook_active":false'*) echo '{"decision":"block","reason":"MORE-PLEASE"}';; esac`;
    const hooks = commandHookRunner(root, "SubagentStop", "", command);
    const script = mainAsksChild(ask("CHILD"), [{ blocks: [text("first")] }, { blocks: [text("second")] }]);
    const run = await scriptedAgent({
      protocol: "anthropic",
      script,
      tools,
      services: { hooks },
      session: { cwd: root },
    });
    try {
      await run.run("MAIN task");
      expect(conversationText(script.requestsOf("child")[1]!)).toContain("MORE-PLEASE");
      expect(conversationText(script.requestsOf("main")[1]!)).toContain("second");
      const runs = readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(runs.map((entry) => [entry.hook_event_name, entry.agent_type, entry.stop_hook_active])).toEqual([
        ["SubagentStop", "general-purpose", false],
        ["SubagentStop", "general-purpose", true],
      ]);
      expect(runs[0]!.agent_id).toMatch(/^agent_/);
    } finally {
      await run.close();
    }
  });

  it("runs SubagentStart hooks with the agent's id and type; their context reaches the sub-agent", async () => {
    const { root, tools } = project();
    const log = join(root, "subagent-start.log");
    const command = `cat >> '${log}'; echo; echo '{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"START-CONTEXT"}}'`;
    const hooks = commandHookRunner(root, "SubagentStart", "general-purpose", command);
    const script = mainAsksChild(ask("CHILD"), [{ blocks: [text("child done")] }]);
    const run = await scriptedAgent({
      protocol: "anthropic",
      script,
      tools,
      services: { hooks },
      session: { cwd: root },
    });
    try {
      await run.run("MAIN task");
      const entry = JSON.parse(readFileSync(log, "utf8").trim().split("\n")[0]!) as Record<string, unknown>;
      expect(entry).toMatchObject({ hook_event_name: "SubagentStart", agent_type: "general-purpose" });
      expect(entry.agent_id).toMatch(/^agent_/);
      expect(conversationText(script.requestsOf("child")[0]!)).toContain("START-CONTEXT");
    } finally {
      await run.close();
    }
  });
});
