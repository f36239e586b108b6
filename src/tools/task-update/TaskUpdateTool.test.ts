import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ToolError } from "../../tool/errors.ts";
import { TaskCreateTool } from "../task-create/TaskCreateTool.ts";
import { TaskGetTool } from "../task-get/TaskGetTool.ts";
import type { TaskStatus } from "../tasks-shared/taskModel.ts";
import { createTaskTestSession, invokeTool, type TaskTestSession } from "../tasks-shared/testing.ts";
import { TaskUpdateTool } from "./TaskUpdateTool.ts";

let session: TaskTestSession;
beforeEach(async () => {
  session = await createTaskTestSession();
});
afterEach(async () => {
  await session.cleanup();
});

async function create(subject: string, description = "") {
  const { data } = await invokeTool(TaskCreateTool, { subject, description }, session.context);
  return data.task.id;
}
const update = (input: Record<string, unknown>, context = session.context) =>
  invokeTool(TaskUpdateTool, input, context);

/** Brings a fresh task to `status` through legal moves only. */
async function taskIn(status: TaskStatus): Promise<string> {
  const id = await create(`task in ${status}`);
  if (status === "pending") return id;
  await update({ taskId: id, status: "in_progress" });
  if (status !== "in_progress") await update({ taskId: id, status });
  return id;
}

async function expectToolError(run: Promise<unknown>, code: string): Promise<ToolError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolError);
  expect((error as ToolError).code).toBe(code);
  return error as ToolError;
}

describe("TaskUpdate state machine", () => {
  const legal: Array<[TaskStatus, TaskStatus]> = [
    ["pending", "in_progress"],
    ["in_progress", "completed"],
    ["in_progress", "deleted"],
  ];
  const illegal: Array<[TaskStatus, TaskStatus]> = [
    ["pending", "completed"],
    ["pending", "deleted"],
    ["in_progress", "pending"],
    ["completed", "pending"],
    ["completed", "in_progress"],
    ["completed", "deleted"],
  ];

  it.each(legal)("allows %s -> %s", async (from, to) => {
    const id = await taskIn(from);
    const { data, text } = await update({ taskId: id, status: to });
    expect(data.task.status).toBe(to);
    expect(text).toContain(`status ${from} -> ${to}`);
  });

  it.each(illegal)("refuses %s -> %s and leaves the task as it was", async (from, to) => {
    const id = await taskIn(from);
    const error = await expectToolError(update({ taskId: id, status: to }), "wrong_state");
    expect(error.message).toContain(`cannot move from ${from} to ${to}`);
    const { data } = await invokeTool(TaskGetTool, { taskId: id }, session.context);
    expect(data.task.status).toBe(from);
  });

  it("refuses any change to a deleted task", async () => {
    const id = await taskIn("deleted");
    await expectToolError(update({ taskId: id, status: "in_progress" }), "wrong_state");
    await expectToolError(update({ taskId: id, subject: "revived" }), "wrong_state");
  });

  it("treats setting the current status as no move", async () => {
    const id = await taskIn("in_progress");
    const { text } = await update({ taskId: id, status: "in_progress" });
    expect(text).toContain("already in_progress");
  });

  it("sets the owner when a task starts: the sub-agent, the main agent, or the named owner", async () => {
    const a = await create("a");
    const b = await create("b");
    const c = await create("c");
    expect((await update({ taskId: a, status: "in_progress" })).data.task.owner).toBe("main");
    const sub = session.reopen("agent-7");
    expect((await update({ taskId: b, status: "in_progress" }, sub)).data.task.owner).toBe("agent-7");
    expect((await update({ taskId: c, status: "in_progress", owner: "reviewer" })).data.task.owner).toBe(
      "reviewer",
    );
  });

  it("names an unknown task and the tasks that exist", async () => {
    await create("only one");
    const error = await expectToolError(update({ taskId: "9", status: "in_progress" }), "not_found");
    expect(error.message).toContain("#1");
  });
});

describe("TaskUpdate dependencies", () => {
  it("keeps blocks and blockedBy symmetric and reports unblocked tasks", async () => {
    const first = await create("first");
    const second = await create("second");
    await update({ taskId: first, addBlocks: [second] });
    const blocked = await invokeTool(TaskGetTool, { taskId: second }, session.context);
    expect(blocked.data.task.blockedBy).toEqual([first]);
    expect(blocked.data.openBlockers).toEqual([first]);

    const started = await update({ taskId: second, status: "in_progress" });
    expect(started.text).toContain(`still blocked by #${first}`);

    await update({ taskId: first, status: "in_progress" });
    const third = await create("third");
    await update({ taskId: third, addBlockedBy: [first] });
    const done = await update({ taskId: first, status: "completed" });
    expect(done.text).toContain(`Now unblocked: #${third}`);
  });

  it("refuses a self edge and a cycle without changing anything", async () => {
    const a = await create("a");
    const b = await create("b");
    const c = await create("c");
    await expectToolError(update({ taskId: a, addBlocks: [a] }), "invalid_input");
    await update({ taskId: a, addBlocks: [b] });
    await update({ taskId: b, addBlocks: [c] });
    const error = await expectToolError(update({ taskId: c, addBlocks: [a] }), "invalid_input");
    expect(error.message).toContain("cycle");
    const { data } = await invokeTool(TaskGetTool, { taskId: c }, session.context);
    expect(data.task.blocks).toEqual([]);
  });
});

describe("the verification nudge", () => {
  async function complete(subject: string) {
    const id = await create(subject);
    await update({ taskId: id, status: "in_progress" });
    return update({ taskId: id, status: "completed" });
  }

  it("comes after the third completed task without a verification step, not before", async () => {
    expect((await complete("Add parser")).data.nudge).toBeUndefined();
    expect((await complete("Add printer")).data.nudge).toBeUndefined();
    const third = await complete("Wire the CLI");
    expect(third.data.nudge).toMatch(/completed 3 tasks .* without a verification step/);
    expect(third.text).toContain("verify");
  });

  it("stays quiet while a verification task is planned, and resets once one is completed", async () => {
    await complete("Add parser");
    await complete("Add printer");
    const verify = await create("Verify: run the test suite");
    expect((await complete("Wire the CLI")).data.nudge).toBeUndefined();
    await update({ taskId: verify, status: "in_progress" });
    expect((await update({ taskId: verify, status: "completed" })).data.nudge).toBeUndefined();
    expect((await complete("Docs")).data.nudge).toBeUndefined();
    expect((await complete("Changelog")).data.nudge).toBeUndefined();
    expect((await complete("Release notes")).data.nudge).toBeDefined();
  });
});
