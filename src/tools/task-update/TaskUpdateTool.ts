// TaskUpdate: moves a task through pending -> in_progress -> completed | deleted and edits its fields.
import { readFileSync } from "node:fs";
import * as z from "zod";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { allowedByTool, buildTool, type Tool } from "../../tool/Tool.ts";
import { TASK_STATUSES, type Task } from "../tasks-shared/taskModel.ts";
import { updateTaskFile } from "../tasks-shared/taskStore.ts";
import { applyTaskUpdate } from "./applyTaskUpdate.ts";
import { taskUpdateToolMeta } from "./meta.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

const taskIds = (what: string) => z.array(z.string().trim().min(1)).optional().describe(what);

const inputSchema = z.strictObject({
  taskId: z.string().trim().min(1).describe('The id of the task to change, e.g. "3"'),
  status: z
    .enum(TASK_STATUSES)
    .optional()
    .describe("New status: pending -> in_progress -> completed | deleted"),
  subject: z.string().trim().min(1).max(200).optional().describe("New title"),
  description: z.string().optional().describe("New description"),
  activeForm: z.string().trim().min(1).optional().describe("New present-continuous form"),
  owner: z.string().trim().min(1).optional().describe("Who works on the task (default when starting: you)"),
  addBlocks: taskIds("Ids of tasks that cannot start until this one is completed"),
  addBlockedBy: taskIds("Ids of tasks that must be completed before this one"),
  metadata: z.record(z.string(), z.unknown()).optional().describe("Keys to merge; null removes a key"),
});

export type TaskUpdateInput = z.infer<typeof inputSchema>;
export interface TaskUpdateOutput {
  task: Task;
  changes: string[];
  notes: string[];
  nudge?: string;
}

function render(output: TaskUpdateOutput): string {
  const what = output.changes.length > 0 ? output.changes.join(", ") : "nothing changed";
  const lines = [`Updated task #${output.task.id} (${output.task.status}): ${what}`, ...output.notes];
  if (output.nudge) lines.push("", output.nudge);
  return lines.join("\n");
}

export const TaskUpdateTool: Tool<TaskUpdateInput, TaskUpdateOutput> = buildTool<
  TaskUpdateInput,
  TaskUpdateOutput
>({
  ...taskUpdateToolMeta,
  searchHint: "update a task: status, owner, dependencies",
  inputSchema,
  maxResultSizeChars: 10_000,
  prompt: () => PROMPT,
  description: (input) => `Update task #${input.taskId}${input.status ? ` to ${input.status}` : ""}`,
  // Changes only the session's own task list, never the workspace: allowed in plan mode too.
  isReadOnly: true,
  changesSessionState: true,
  isConcurrencySafe: false,
  checkPermissions: allowedByTool("edits the session's own task list"),

  async call(input, context) {
    const outcome = await updateTaskFile(context, (file) => applyTaskUpdate(file, input, context.agentId));
    return { data: { ...outcome, task: structuredClone(outcome.task) } };
  },

  mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
    return { type: "tool_result", tool_use_id: toolUseId, content: render(output) };
  },
  renderToolResult: (output) => ({ kind: "text", text: render(output) }),
});
