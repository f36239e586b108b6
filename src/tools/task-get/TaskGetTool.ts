// TaskGet: one task of the session's task list, in full.
import { readFileSync } from "node:fs";
import * as z from "zod";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { allowedByTool, buildTool, type Tool } from "../../tool/Tool.ts";
import { openBlockers, type Task } from "../tasks-shared/taskModel.ts";
import { readTaskFile, requireTask } from "../tasks-shared/taskStore.ts";
import { taskGetToolMeta } from "./meta.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

const inputSchema = z.strictObject({
  taskId: z.string().trim().min(1).describe('The task\'s id, e.g. "3"'),
});

export type TaskGetInput = z.infer<typeof inputSchema>;
export interface TaskGetOutput {
  task: Task;
  /** Blockers that are neither completed nor deleted. */
  openBlockers: string[];
}

function render(output: TaskGetOutput): string {
  const { task } = output;
  const ids = (list: string[]) => (list.length > 0 ? list.map((id) => `#${id}`).join(", ") : "none");
  const lines = [
    `Task #${task.id}: ${task.subject}`,
    `Status: ${task.status}`,
    ...(task.owner ? [`Owner: ${task.owner}`] : []),
    `Blocks: ${ids(task.blocks)}`,
    `Blocked by: ${ids(task.blockedBy)}${output.openBlockers.length > 0 ? ` (still open: ${ids(output.openBlockers)})` : ""}`,
    "",
    task.description || "(no description)",
  ];
  if (task.metadata) lines.push("", `Metadata: ${JSON.stringify(task.metadata)}`);
  return lines.join("\n");
}

export const TaskGetTool: Tool<TaskGetInput, TaskGetOutput> = buildTool<TaskGetInput, TaskGetOutput>({
  ...taskGetToolMeta,
  searchHint: "read one task of the session task list",
  inputSchema,
  maxResultSizeChars: 20_000,
  prompt: () => PROMPT,
  description: (input) => `Read task #${input.taskId}`,
  isReadOnly: true,
  isConcurrencySafe: true,
  checkPermissions: allowedByTool("reads the session's own task list"),

  async call(input, context) {
    const file = await readTaskFile(context);
    const task = requireTask(file, input.taskId);
    return { data: { task, openBlockers: openBlockers(file, task) } };
  },

  mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
    return { type: "tool_result", tool_use_id: toolUseId, content: render(output) };
  },
  renderToolResult: (output) => ({ kind: "text", text: render(output) }),
});
