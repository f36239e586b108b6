// TaskStop: ends a background task of this session (a command with every process it started, or a sub-agent).
import { readFileSync } from "node:fs";
import * as z from "zod";
import {
  type BackgroundTaskInfo,
  getBackgroundTask,
  stopBackgroundTask,
} from "../../shell/run/background.ts";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { allowedByTool, buildTool } from "../../tool/Tool.ts";
import { unknownTaskError } from "../task-output/TaskOutputTool.ts";
import { taskStopToolMeta } from "./meta.ts";

const inputSchema = z.object({
  task_id: z.string().min(1).describe("The id of the background task to stop"),
});

export type TaskStopInput = z.infer<typeof inputSchema>;

export interface TaskStopOutput {
  taskId: string;
  command: string;
  /** Status before the stop: a task that had already ended is left as it was. */
  previousStatus: BackgroundTaskInfo["status"];
  status: BackgroundTaskInfo["status"];
  outputPath: string;
}

let prompt: string | undefined;

function resultText(output: TaskStopOutput): string {
  if (output.previousStatus !== "running")
    return `Task ${output.taskId} had already ended (${output.status}); nothing to stop. Its output is in ${output.outputPath}.`;
  return `Task ${output.taskId} stopped (${output.command}). Its output remains in ${output.outputPath}.`;
}

export const TaskStopTool = buildTool<TaskStopInput, TaskStopOutput>({
  ...taskStopToolMeta,
  searchHint: "stop a background shell task or sub-agent",
  inputSchema,
  maxResultSizeChars: 10_000,
  prompt: () => {
    prompt ??= readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();
    return prompt;
  },
  description: (input) => `Stop task ${input.task_id}`,
  // Stopping a task this session started undoes nothing and reaches nothing outside the session.
  checkPermissions: allowedByTool("stops the session's own background task"),

  async call(input, context) {
    const sessionId = context.options.sessionId;
    const before = getBackgroundTask(sessionId, input.task_id);
    if (!before) throw unknownTaskError(sessionId, input.task_id);
    const after = (await stopBackgroundTask(sessionId, input.task_id)) ?? before;
    return {
      data: {
        taskId: after.id,
        command: after.command,
        previousStatus: before.status,
        status: after.status,
        outputPath: after.outputPath,
      },
    };
  },

  mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
    return { type: "tool_result", tool_use_id: toolUseId, content: resultText(output) };
  },

  renderToolUse: (input) => ({ kind: "text", text: `TaskStop ${input.task_id}` }),
  renderToolResult: (output) => ({ kind: "text", text: resultText(output) }),
});
