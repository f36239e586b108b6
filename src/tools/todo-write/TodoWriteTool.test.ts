import { readFile } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ToolError } from "../../tool/errors.ts";
import { createTaskTestSession, invokeTool, type TaskTestSession } from "../tasks-shared/testing.ts";
import { readTodos, type Todo, TodoWriteTool, todoFilePath } from "./TodoWriteTool.ts";

let session: TaskTestSession;
beforeEach(async () => {
  session = await createTaskTestSession();
});
afterEach(async () => {
  await session.cleanup();
});

const todo = (content: string, status: Todo["status"]): Todo => ({
  content,
  status,
  activeForm: `${content}ing`,
});
const write = (todos: Todo[], context = session.context) => invokeTool(TodoWriteTool, { todos }, context);

describe("TodoWrite", () => {
  it("replaces the whole list on each call and returns the previous one", async () => {
    const first = [todo("Read", "in_progress"), todo("Edit", "pending")];
    expect((await write(first)).data.oldTodos).toEqual([]);
    const second = [todo("Edit", "in_progress")];
    const result = await write(second);
    expect(result.data.oldTodos).toEqual(first);
    expect(await readTodos(session.reopen())).toEqual(second);
    const onDisk = JSON.parse(await readFile(todoFilePath(session.context), "utf8"));
    expect(onDisk.todos).toEqual(second);
  });

  it.each([
    [[todo("a", "in_progress"), todo("b", "pending")], true],
    [[todo("a", "pending"), todo("b", "pending")], true],
    [[], true],
    [[todo("a", "in_progress"), todo("b", "in_progress")], false],
    [[todo("a", "in_progress"), todo("b", "completed"), todo("c", "in_progress")], false],
  ])("allows at most one in_progress item (%#)", async (todos, ok) => {
    const run = write(todos);
    if (ok) await expect(run).resolves.toBeDefined();
    else {
      const error = await run.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ToolError);
      expect((error as ToolError).message).toContain("At most one todo may be in_progress");
      expect(await readTodos(session.context)).toEqual([]);
    }
  });

  it("refuses items without content or activeForm, and unknown statuses", () => {
    for (const bad of [
      { content: "", status: "pending", activeForm: "x" },
      { content: "x", status: "pending" },
      { content: "x", status: "done", activeForm: "x" },
    ])
      expect(TodoWriteTool.inputSchema.safeParse({ todos: [bad] }).success).toBe(false);
  });

  it("clears the list when every item is completed, nudging when none verified the work", async () => {
    const done = await write([todo("A", "completed"), todo("B", "completed"), todo("C", "completed")]);
    expect(done.data.cleared).toBe(true);
    expect(done.data.nudge).toContain("without a verification step");
    expect(await readTodos(session.context)).toEqual([]);
    const verified = await write([
      todo("A", "completed"),
      todo("B", "completed"),
      todo("Run the tests", "completed"),
    ]);
    expect(verified.data.nudge).toBeUndefined();
  });

  it("keeps a sub-agent's list apart from the main agent's", async () => {
    await write([todo("Main work", "in_progress")]);
    const sub = session.reopen("agent-2");
    await write([todo("Sub work", "pending")], sub);
    expect((await readTodos(session.context))[0]?.content).toBe("Main work");
    expect((await readTodos(sub))[0]?.content).toBe("Sub work");
  });
});
