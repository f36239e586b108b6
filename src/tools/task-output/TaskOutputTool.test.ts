import { describe, expect, it } from "vitest";
import { ToolError } from "../../tool/errors.ts";
import { BashTool } from "../bash/BashTool.ts";
import { callTool, shellSessionForEachTest } from "../bash/testing/context.ts";
import { TaskOutputTool } from "./TaskOutputTool.ts";

const session = shellSessionForEachTest();

async function startTask(command: string): Promise<string> {
  const started = await callTool(BashTool, { command, run_in_background: true }, session.context);
  return started.data.backgroundTaskId ?? "";
}

const taskOutput = (input: Record<string, unknown>) => callTool(TaskOutputTool, input, session.context);

describe("TaskOutput", () => {
  it("blocks by default until the task ends and returns its output and status", async () => {
    const id = await startTask("echo one; sleep 0.3; echo two");
    const result = await taskOutput({ task_id: id });
    expect(result.text).toBe(`one\ntwo\nTask ${id} completed (exit code 0).`);
    expect(result.data.status).toBe("completed");
  });

  it("with block false returns at once, and later reads return only new output", async () => {
    const id = await startTask("echo early; sleep 0.6; echo late");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const first = await taskOutput({ task_id: id, block: false });
    expect(first.data.status).toBe("running");
    expect(first.text).toBe(`early\nTask ${id} is running.`);
    const second = await taskOutput({ task_id: id, timeout: 10_000 });
    expect(second.text).toBe(`late\nTask ${id} completed (exit code 0).`);
    const third = await taskOutput({ task_id: id, block: false });
    expect(third.text).toBe(`(no new output)\nTask ${id} completed (exit code 0).`);
  });

  it("says when it stopped waiting for a task still running", async () => {
    const id = await startTask("sleep 30");
    const result = await taskOutput({ task_id: id, timeout: 100 });
    expect(result.data.waitTimedOut).toBe(true);
    expect(result.text).toContain("still running");
  });

  it("reports a failed task with its exit code", async () => {
    const id = await startTask("echo bad >&2; exit 4");
    const result = await taskOutput({ task_id: id });
    expect(result.text).toBe(`bad\nTask ${id} failed (exit code 4).`);
  });

  it("names the known tasks when the id is unknown", async () => {
    const id = await startTask("sleep 30");
    const error = await taskOutput({ task_id: "bash_nope" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe("not_found");
    expect((error as ToolError).message).toContain(`${id} (running)`);
  });

  it("is read-only, parallel-safe and allowed without asking", async () => {
    expect(TaskOutputTool.isReadOnly({ task_id: "x" })).toBe(true);
    expect(TaskOutputTool.isConcurrencySafe({ task_id: "x" })).toBe(true);
    expect((await TaskOutputTool.checkPermissions({ task_id: "x" }, session.context)).behavior).toBe("allow");
  });
});
