import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ToolError } from "../../tool/errors.ts";
import { TaskCreateTool } from "../task-create/TaskCreateTool.ts";
import { TaskUpdateTool } from "../task-update/TaskUpdateTool.ts";
import { createTaskTestSession, invokeTool, type TaskTestSession } from "../tasks-shared/testing.ts";
import { TaskGetTool } from "./TaskGetTool.ts";

let session: TaskTestSession;
beforeEach(async () => {
  session = await createTaskTestSession();
});
afterEach(async () => {
  await session.cleanup();
});

describe("TaskGet", () => {
  it("shows a task in full: status, owner, dependencies with the open ones, description, metadata", async () => {
    await invokeTool(
      TaskCreateTool,
      { subject: "Schema", description: "Design the schema" },
      session.context,
    );
    await invokeTool(
      TaskCreateTool,
      { subject: "API", description: "Build the API on the schema", metadata: { area: "backend" } },
      session.context,
    );
    await invokeTool(
      TaskUpdateTool,
      { taskId: "2", addBlockedBy: ["1"], status: "in_progress" },
      session.context,
    );
    const { text } = await invokeTool(TaskGetTool, { taskId: "#2" }, session.context);
    expect(text).toBe(
      [
        "Task #2: API",
        "Status: in_progress",
        "Owner: main",
        "Blocks: none",
        "Blocked by: #1 (still open: #1)",
        "",
        "Build the API on the schema",
        "",
        'Metadata: {"area":"backend"}',
      ].join("\n"),
    );
  });

  it("is read-only and concurrency-safe, and names a missing task", async () => {
    expect(TaskGetTool.isReadOnly({ taskId: "1" })).toBe(true);
    expect(TaskGetTool.isConcurrencySafe({ taskId: "1" })).toBe(true);
    const error = await invokeTool(TaskGetTool, { taskId: "4" }, session.context).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).message).toContain("The task list is empty");
  });
});
