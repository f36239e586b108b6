import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scriptedAgent } from "../../agent/testing/harness.ts";
import { text, toolUse } from "../../agent/testing/script.ts";
import { getBackgroundTask } from "../../shell/run/background.ts";
import type { Tool } from "../../tool/Tool.ts";
import { ReadTool } from "../read/ReadTool.ts";
import { TaskOutputTool } from "../task-output/TaskOutputTool.ts";
import { TaskStopTool } from "../task-stop/TaskStopTool.ts";
import { createAgentTool } from "./AgentTool.ts";
import { agentIdsIn, byPrompt, conversationText, routedScript } from "./testing.ts";

const base = mkdtempSync(join(tmpdir(), "keel-agent-bg-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const tools = [
  ReadTool,
  createAgentTool({ projectRoot: base, env: { KEEL_HOME: base } }),
  TaskOutputTool,
  TaskStopTool,
] as Tool[];

const background = (prompt: string) =>
  toolUse("Agent", { description: "background work", prompt, run_in_background: true });

describe("background sub-agents", () => {
  it("return a task id at once; TaskOutput waits for the report; the parent is told when it finishes", async () => {
    writeFileSync(join(base, "facts.txt"), "fact: the sky is green\n");
    let taskId = "";
    const script = routedScript([
      {
        name: "main",
        match: byPrompt("MAIN"),
        turns: [
          { blocks: [background("CHILD-BG read facts.txt")] },
          (request) => {
            taskId = agentIdsIn(request)[0]!;
            return { blocks: [toolUse("TaskOutput", { task_id: taskId, block: true, timeout: 20_000 })] };
          },
          { blocks: [text("done")] },
        ],
      },
      {
        name: "child",
        match: byPrompt("CHILD-BG"),
        turns: [
          { blocks: [toolUse("Read", { file_path: join(base, "facts.txt") })] },
          { blocks: [text("bg report: the sky is green")] },
        ],
      },
    ]);
    const run = await scriptedAgent({ protocol: "anthropic", script, tools, session: { cwd: base } });
    try {
      const { outcome } = await run.run("MAIN task");
      expect(outcome.text).toBe("done");
      const [first, second, third] = script.requestsOf("main");
      expect(conversationText(second!)).toContain(`Started ${taskId} (general-purpose) in the background`);
      expect(first).toBeDefined();
      const last = conversationText(third!);
      expect(last).toMatch(new RegExp(`Task ${taskId} \\(sub-agent\\) completed\\.`));
      expect(last).toContain("bg report: the sky is green");
      expect(last).toContain(
        `<task-notification>\nBackground agent ${taskId} ("background work") completed.`,
      );
      const task = getBackgroundTask(run.agent.sessionId, taskId)!;
      expect(task).toMatchObject({
        kind: "agent",
        status: "completed",
        command: "general-purpose: background work",
      });
      const log = readFileSync(task.outputPath, "utf8");
      expect(log).toContain(`→ Read {"file_path":"${join(base, "facts.txt")}"}`);
      expect(log).toContain(`--- Report of ${taskId} (completed) ---\nbg report: the sky is green`);
    } finally {
      await run.close();
    }
  });

  it("stop with TaskStop: the model request and the loop end, and TaskOutput says so", async () => {
    let taskId = "";
    let arrived: () => void = () => {};
    const childArrived = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const script = routedScript([
      {
        name: "main",
        match: byPrompt("MAIN"),
        turns: [
          { blocks: [background("CHILD-HANG")] },
          // A look at the task, finished only once the sub-agent's request is under way.
          (request) => {
            taskId = agentIdsIn(request)[0]!;
            return {
              blocks: [toolUse("TaskOutput", { task_id: taskId, block: false })],
              beforeStop: () => childArrived,
            };
          },
          { blocks: [toolUse("TaskStop", { task_id: "TASK" })] },
          { blocks: [toolUse("TaskOutput", { task_id: "TASK", block: false })] },
          { blocks: [text("done")] },
        ],
      },
      // The sub-agent's model never finishes its answer.
      {
        name: "child",
        match: byPrompt("CHILD-HANG"),
        turns: [
          () => {
            arrived();
            return { blocks: [text("working..."), text("more")], hangAfterBlocks: 1 };
          },
        ],
      },
    ]);
    const run = await scriptedAgent({
      protocol: "openai",
      script: (request, index) => {
        const turn = script(request, index);
        const blocks = turn.blocks?.map((block) =>
          block.type === "tool_use" && (block.input as { task_id?: string }).task_id === "TASK"
            ? { ...block, input: { ...(block.input as object), task_id: taskId } }
            : block,
        );
        return { ...turn, ...(blocks ? { blocks } : {}) };
      },
      tools,
      session: { cwd: base },
    });
    try {
      await run.run("MAIN task");
      const main = script.requestsOf("main");
      expect(conversationText(main[2]!)).toContain(`Task ${taskId} is running.`);
      expect(conversationText(main[3]!)).toContain(
        `Task ${taskId} stopped (general-purpose: background work)`,
      );
      expect(conversationText(main[4]!)).toContain(`Task ${taskId} was stopped.`);
      expect(conversationText(main[4]!)).not.toContain("<task-notification>");
      expect(getBackgroundTask(run.agent.sessionId, taskId)?.status).toBe("killed");
      expect(run.server.clientClosed.length).toBeGreaterThanOrEqual(1);
    } finally {
      await run.close();
    }
  });
});
