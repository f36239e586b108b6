// The session's task list on disk: read it, or change it under a lock and write it back atomically.
import type { ToolUseContext } from "../../tool/context.ts";
import { ToolError } from "../../tool/errors.ts";
import { readSessionJson, sessionDataFile, withFileLock, writeSessionJson } from "./sessionData.ts";
import { emptyTaskFile, type Task, type TaskFile, taskFileSchema } from "./taskModel.ts";

export function taskFilePath(context: ToolUseContext): string {
  return sessionDataFile(context, "tasks");
}

async function load(path: string): Promise<TaskFile> {
  const raw = await readSessionJson(path);
  if (raw === undefined) return emptyTaskFile();
  const parsed = taskFileSchema.safeParse(raw);
  if (!parsed.success)
    throw new ToolError(
      "corrupt_session_data",
      `The task list ${path} does not have the expected shape (${parsed.error.issues[0]?.message ?? "invalid"}). Move it away to start a fresh list.`,
    );
  return parsed.data;
}

export async function readTaskFile(context: ToolUseContext): Promise<TaskFile> {
  return load(taskFilePath(context));
}

/** Runs `change` on the current list under the file's lock; writes the list back unless it throws. */
export async function updateTaskFile<T>(
  context: ToolUseContext,
  change: (file: TaskFile) => T | Promise<T>,
): Promise<T> {
  const path = taskFilePath(context);
  return withFileLock(path, async () => {
    const file = await load(path);
    const result = await change(file);
    writeSessionJson(path, file);
    return result;
  });
}

/** The task with this id (a leading `#` is tolerated), or a not_found error listing what exists. */
export function requireTask(file: TaskFile, rawId: string): Task {
  const id = rawId.trim().replace(/^#/, "");
  const task = file.tasks.find((candidate) => candidate.id === id);
  if (task) return task;
  const known = file.tasks.filter((t) => t.status !== "deleted").map((t) => `#${t.id}`);
  throw new ToolError(
    "not_found",
    `No task #${id} in this session. ${known.length > 0 ? `Existing tasks: ${known.join(", ")}. Use TaskList to see them.` : "The task list is empty; create tasks with TaskCreate."}`,
  );
}
