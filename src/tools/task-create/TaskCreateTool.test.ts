import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createToolUseContext } from "../../tool/createContext.ts";
import { TaskListTool } from "../task-list/TaskListTool.ts";
import { TaskUpdateTool } from "../task-update/TaskUpdateTool.ts";
import { taskFilePath } from "../tasks-shared/taskStore.ts";
import { createTaskTestSession, invokeTool, type TaskTestSession } from "../tasks-shared/testing.ts";
import { TaskCreateTool } from "./TaskCreateTool.ts";

let session: TaskTestSession;
beforeEach(async () => {
  session = await createTaskTestSession("sess/../odd id");
});
afterEach(async () => {
  await session.cleanup();
});

describe("TaskCreate and persistence", () => {
  it("numbers tasks and persists them per session, so a new context of the session sees them", async () => {
    const first = await invokeTool(TaskCreateTool, { subject: "Plan", description: "d1" }, session.context);
    const second = await invokeTool(TaskCreateTool, { subject: "Build", description: "d2" }, session.context);
    expect([first.data.task.id, second.data.task.id]).toEqual(["1", "2"]);
    expect(first.text).toBe("Task #1 created (pending): Plan");
    await invokeTool(TaskUpdateTool, { taskId: "1", status: "in_progress" }, session.context);

    const path = taskFilePath(session.context);
    expect(dirname(path)).toBe(join(session.dir, "tasks"));
    const onDisk = JSON.parse(await readFile(path, "utf8"));
    expect(onDisk.tasks.map((t: { subject: string; status: string }) => [t.subject, t.status])).toEqual([
      ["Plan", "in_progress"],
      ["Build", "pending"],
    ]);

    const later = await invokeTool(TaskListTool, {}, session.reopen());
    expect(later.text).toBe("#1 [in_progress] Plan (owner: main)\n#2 [pending] Build");
  });

  it("keeps sessions apart", async () => {
    await invokeTool(TaskCreateTool, { subject: "Mine", description: "" }, session.context);
    const other = createToolUseContext({ tools: [], sessionId: "another" });
    other.options = { ...other.options, ...{ tasksDir: join(session.dir, "tasks") } };
    expect((await invokeTool(TaskListTool, {}, other)).text).toContain("No tasks yet");
  });

  it("uses ~/.keel/tasks/<session>.json under KEEL_HOME when no folder is configured", () => {
    const previous = process.env.KEEL_HOME;
    process.env.KEEL_HOME = session.dir;
    try {
      const context = createToolUseContext({ tools: [], sessionId: "abc" });
      expect(taskFilePath(context)).toBe(join(session.dir, ".keel", "tasks", "abc.json"));
    } finally {
      if (previous === undefined) delete process.env.KEEL_HOME;
      else process.env.KEEL_HOME = previous;
    }
  });

  it("serializes parallel creations: no id is handed out twice", async () => {
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        invokeTool(TaskCreateTool, { subject: `t${i}`, description: "" }, session.context),
      ),
    );
    const list = await invokeTool(TaskListTool, {}, session.context);
    expect(list.data.tasks.map((t) => t.id).sort()).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);
  });

  it("hides deleted tasks from the list", async () => {
    await invokeTool(TaskCreateTool, { subject: "Keep", description: "" }, session.context);
    await invokeTool(TaskCreateTool, { subject: "Drop", description: "" }, session.context);
    await invokeTool(TaskUpdateTool, { taskId: "2", status: "in_progress" }, session.context);
    await invokeTool(TaskUpdateTool, { taskId: "2", status: "deleted" }, session.context);
    expect((await invokeTool(TaskListTool, {}, session.context)).text).toBe("#1 [pending] Keep");
  });
});
