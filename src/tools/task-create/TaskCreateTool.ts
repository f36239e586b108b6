// TaskCreate: adds a pending task to the session's task list.
import { readFileSync } from "node:fs";
import * as z from "zod";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { allowedByTool, buildTool, type Tool } from "../../tool/Tool.ts";
import type { Task } from "../tasks-shared/taskModel.ts";
import { updateTaskFile } from "../tasks-shared/taskStore.ts";
import { taskCreateToolMeta } from "./meta.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

const inputSchema = z.strictObject({
  subject: z.string().trim().min(1).max(200).describe("A short imperative title for the task"),
  description: z.string().describe("What needs to be done, and how to tell it is done"),
  activeForm: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe('Present continuous form shown while the task runs, e.g. "Running the tests"'),
  metadata: z.record(z.string(), z.unknown()).optional().describe("Free-form data to keep with the task"),
});

export type TaskCreateInput = z.infer<typeof inputSchema>;
export interface TaskCreateOutput {
  task: Pick<Task, "id" | "subject" | "status">;
}

export const TaskCreateTool: Tool<TaskCreateInput, TaskCreateOutput> = buildTool<
  TaskCreateInput,
  TaskCreateOutput
>({
  ...taskCreateToolMeta,
  searchHint: "create a task in the session task list (plan and track work)",
  inputSchema,
  maxResultSizeChars: 10_000,
  prompt: () => PROMPT,
  description: (input) => `Create task: ${input.subject}`,
  // Changes only the session's own task list, never the workspace: allowed in plan mode too.
  isReadOnly: true,
  changesSessionState: true,
  // Only adds a task: nothing that was there is changed or lost (MCP's destructiveHint: false).
  isDestructive: false,
  // Writes the shared list; the store's lock serializes writers, but results would interleave oddly.
  isConcurrencySafe: false,
  checkPermissions: allowedByTool("edits the session's own task list"),

  async call(input, context) {
    const task = await updateTaskFile(context, (file) => {
      const now = new Date().toISOString();
      const created: Task = {
        id: String(file.nextId),
        subject: input.subject,
        description: input.description,
        ...(input.activeForm === undefined ? {} : { activeForm: input.activeForm }),
        status: "pending",
        blocks: [],
        blockedBy: [],
        ...(input.metadata === undefined ? {} : { metadata: input.metadata }),
        createdAt: now,
        updatedAt: now,
      };
      file.nextId += 1;
      file.tasks.push(created);
      return created;
    });
    return { data: { task: { id: task.id, subject: task.subject, status: task.status } } };
  },

  mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
    return {
      type: "tool_result",
      tool_use_id: toolUseId,
      content: `Task #${output.task.id} created (pending): ${output.task.subject}`,
    };
  },
  renderToolUse: (input) => ({ kind: "text", text: `New task: ${input.subject}` }),
  renderToolResult: (output) => ({ kind: "text", text: `#${output.task.id} ${output.task.subject}` }),
});
