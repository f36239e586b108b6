// TaskList: every task of the session's list that is not deleted, one line each.
import { readFileSync } from "node:fs";
import * as z from "zod";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { allowedByTool, buildTool, type Tool } from "../../tool/Tool.ts";
import { openBlockers, type TaskStatus, taskLine } from "../tasks-shared/taskModel.ts";
import { readTaskFile } from "../tasks-shared/taskStore.ts";
import { taskListToolMeta } from "./meta.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

const inputSchema = z.strictObject({});

export type TaskListInput = z.infer<typeof inputSchema>;
export interface TaskListEntry {
  id: string;
  subject: string;
  status: TaskStatus;
  owner?: string;
  openBlockers: string[];
}
export interface TaskListOutput {
  tasks: TaskListEntry[];
  lines: string[];
}

export const TaskListTool: Tool<TaskListInput, TaskListOutput> = buildTool<TaskListInput, TaskListOutput>({
  ...taskListToolMeta,
  searchHint: "list the tasks of the session task list",
  inputSchema,
  maxResultSizeChars: 50_000,
  prompt: () => PROMPT,
  description: () => "List tasks",
  isReadOnly: true,
  isConcurrencySafe: true,
  checkPermissions: allowedByTool("reads the session's own task list"),

  async call(_input, context) {
    const file = await readTaskFile(context);
    const visible = file.tasks.filter((task) => task.status !== "deleted");
    return {
      data: {
        tasks: visible.map((task) => ({
          id: task.id,
          subject: task.subject,
          status: task.status,
          ...(task.owner ? { owner: task.owner } : {}),
          openBlockers: openBlockers(file, task),
        })),
        lines: visible.map((task) => taskLine(file, task)),
      },
    };
  },

  mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
    const content =
      output.lines.length > 0 ? output.lines.join("\n") : "No tasks yet. Create them with TaskCreate.";
    return { type: "tool_result", tool_use_id: toolUseId, content };
  },
  renderToolResult: (output) => ({ kind: "list", title: "Tasks", items: output.lines }),
});
