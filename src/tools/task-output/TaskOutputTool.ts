// TaskOutput: new output and status of a background task of this session, optionally waiting for it to end.
import { readFileSync } from "node:fs";
import * as z from "zod";
import { type BackgroundTaskInfo, listBackgroundTasks, readTaskOutput } from "../../shell/run/background.ts";
import { BASH_MAX_OUTPUT_CHARS } from "../../shell/run/output.ts";
import { ToolError } from "../../tool/errors.ts";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { allowedByTool, buildTool } from "../../tool/Tool.ts";
import { taskOutputToolMeta } from "./meta.ts";

const DEFAULT_WAIT_MS = 30_000;
const MAX_WAIT_MS = 600_000;

const inputSchema = z.object({
  task_id: z.string().min(1).describe("The id of the background task"),
  block: z.boolean().optional().describe("Wait for the task to end before returning (default true)"),
  timeout: z
    .number()
    .int()
    .nonnegative()
    .max(MAX_WAIT_MS)
    .optional()
    .describe("How long to wait when block is true, in milliseconds (default 30000, max 600000)"),
});

export type TaskOutputInput = z.infer<typeof inputSchema>;

export interface TaskOutputOutput {
  taskId: string;
  kind: BackgroundTaskInfo["kind"];
  command: string;
  status: BackgroundTaskInfo["status"];
  exitCode: number | null;
  exitNote?: string;
  /** Output since the previous read, ANSI stripped and capped. */
  output: string;
  newBytes: number;
  truncated: boolean;
  outputPath: string;
  /** A blocking read stopped waiting while the task was still running. */
  waitTimedOut: boolean;
}

let prompt: string | undefined;

export function unknownTaskError(sessionId: string, taskId: string): ToolError {
  const known = listBackgroundTasks(sessionId).map((task) => `${task.id} (${task.status})`);
  return new ToolError(
    "not_found",
    `No background task "${taskId}" in this session. ${known.length > 0 ? `Known tasks: ${known.join(", ")}.` : "No background tasks have been started."}`,
  );
}

function statusLine(output: TaskOutputOutput): string {
  switch (output.status) {
    case "running":
      return output.waitTimedOut
        ? `Task ${output.taskId} is still running (stopped waiting). Call TaskOutput again to wait more, or TaskStop to end it.`
        : `Task ${output.taskId} is running.`;
    case "completed":
      if (output.kind === "agent") return `Task ${output.taskId} (sub-agent) completed.`;
      return `Task ${output.taskId} completed (exit code ${output.exitCode}${output.exitNote ? `: ${output.exitNote}` : ""}).`;
    case "failed":
      if (output.kind === "agent")
        return `Task ${output.taskId} (sub-agent) failed${output.exitNote ? `: ${output.exitNote}` : ""}.`;
      return `Task ${output.taskId} failed (exit code ${output.exitCode ?? "none: killed by a signal"}).`;
    case "killed":
      return `Task ${output.taskId} was stopped.`;
  }
}

function resultText(output: TaskOutputOutput): string {
  const parts = [output.output.replace(/\n+$/, "") || "(no new output)", statusLine(output)];
  if (output.truncated) parts.push(`Full output: ${output.outputPath}`);
  return parts.join("\n");
}

export const TaskOutputTool = buildTool<TaskOutputInput, TaskOutputOutput>({
  ...taskOutputToolMeta,
  searchHint: "read output of a background shell task or sub-agent",
  inputSchema,
  maxResultSizeChars: BASH_MAX_OUTPUT_CHARS,
  prompt: () => {
    prompt ??= readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();
    return prompt;
  },
  description: (input) => `Read output of task ${input.task_id}`,
  isReadOnly: true,
  isConcurrencySafe: true,
  interruptBehavior: () => "cancel",
  // Reading a task this session started reveals nothing the session could not already see.
  checkPermissions: allowedByTool("reads output of the session's own background task"),

  async call(input, context) {
    const sessionId = context.options.sessionId;
    const read = await readTaskOutput(sessionId, input.task_id, {
      block: input.block ?? true,
      timeoutMs: input.timeout ?? DEFAULT_WAIT_MS,
      signal: context.abortController.signal,
    });
    if (!read) throw unknownTaskError(sessionId, input.task_id);
    const { task } = read;
    return {
      data: {
        taskId: task.id,
        kind: task.kind,
        command: task.command,
        status: task.status,
        exitCode: task.exitCode,
        ...(task.exitNote ? { exitNote: task.exitNote } : {}),
        output: read.output,
        newBytes: read.newBytes,
        truncated: read.truncated,
        outputPath: task.outputPath,
        waitTimedOut: read.waitTimedOut,
      },
    };
  },

  mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
    return { type: "tool_result", tool_use_id: toolUseId, content: resultText(output) };
  },

  renderToolUse: (input) => ({ kind: "text", text: `TaskOutput ${input.task_id}` }),
  renderToolResult: (output) => ({
    kind: "command",
    command: output.command,
    output: resultText(output),
    ...(output.exitCode === null ? {} : { exitCode: output.exitCode }),
  }),
});
