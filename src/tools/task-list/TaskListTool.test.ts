import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TaskCreateTool } from "../task-create/TaskCreateTool.ts";
import { TaskUpdateTool } from "../task-update/TaskUpdateTool.ts";
import { createTaskTestSession, invokeTool, type TaskTestSession } from "../tasks-shared/testing.ts";
import { TaskListTool } from "./TaskListTool.ts";

let session: TaskTestSession;
beforeEach(async () => {
  session = await createTaskTestSession();
});
afterEach(async () => {
  await session.cleanup();
});

describe("TaskList", () => {
  it("lists open blockers only, and shows owners", async () => {
    for (const subject of ["Schema", "API", "Docs"])
      await invokeTool(TaskCreateTool, { subject, description: "" }, session.context);
    await invokeTool(TaskUpdateTool, { taskId: "1", addBlocks: ["2", "3"] }, session.context);
    expect((await invokeTool(TaskListTool, {}, session.context)).text).toBe(
      ["#1 [pending] Schema", "#2 [pending] API [blocked by #1]", "#3 [pending] Docs [blocked by #1]"].join(
        "\n",
      ),
    );
    await invokeTool(TaskUpdateTool, { taskId: "1", status: "in_progress" }, session.reopen("agent-3"));
    await invokeTool(TaskUpdateTool, { taskId: "1", status: "completed" }, session.context);
    const { data, text } = await invokeTool(TaskListTool, {}, session.context);
    expect(text.split("\n")[0]).toBe("#1 [completed] Schema (owner: agent-3)");
    expect(data.tasks.every((task) => task.openBlockers.length === 0)).toBe(true);
  });

  it("says how to start when the list is empty", async () => {
    expect((await invokeTool(TaskListTool, {}, session.context)).text).toContain("TaskCreate");
  });
});
