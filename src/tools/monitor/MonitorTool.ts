// Monitor: waits on a background task's output until a line matches a pattern, the task ends, or a
// timeout; returns the matching lines ("until the dev server prints ready").
import { readFileSync } from "node:fs";
import * as z from "zod";
import type { BackgroundTaskInfo } from "../../shell/run/background.ts";
import { type MonitorMatch, type MonitorStop, monitorTaskOutput } from "../../shell/run/monitorOutput.ts";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { allowedByTool, buildTool } from "../../tool/Tool.ts";
import { unknownTaskError } from "../task-output/TaskOutputTool.ts";
import { monitorToolMeta } from "./meta.ts";

const DEFAULT_WAIT_MS = 60_000;
const MAX_WAIT_MS = 600_000;

const inputSchema = z.strictObject({
  task_id: z.string().min(1).describe("The id of the background task to watch"),
  pattern: z
    .string()
    .min(1)
    .describe("JavaScript regular expression tested against each output line, e.g. 'ready|listening on'"),
  case_insensitive: z.boolean().optional().describe("Match ignoring case"),
  timeout: z
    .number()
    .int()
    .positive()
    .max(MAX_WAIT_MS)
    .optional()
    .describe("How long to wait in milliseconds (default 60000, max 600000)"),
});

export type MonitorInput = z.infer<typeof inputSchema>;

export interface MonitorOutput {
  taskId: string;
  command: string;
  pattern: string;
  stoppedBecause: MonitorStop;
  matches: MonitorMatch[];
  tail: string[];
  status: BackgroundTaskInfo["status"];
  exitCode: number | null;
  outputPath: string;
  timeoutMs: number;
}

let prompt: string | undefined;

function compile(input: MonitorInput): RegExp | string {
  try {
    return new RegExp(input.pattern, input.case_insensitive ? "i" : "");
  } catch (error) {
    return (error as Error).message;
  }
}

function resultText(output: MonitorOutput): string {
  const lines = (list: string[]) => list.map((line) => `  ${line}`).join("\n");
  switch (output.stoppedBecause) {
    case "matched":
      return [
        `Task ${output.taskId} printed ${output.matches.length} line${output.matches.length === 1 ? "" : "s"} matching /${output.pattern}/ (task ${output.status}):`,
        ...output.matches.map((match) => `${match.line}: ${match.text}`),
      ].join("\n");
    case "exited":
      return [
        `Task ${output.taskId} ended (${output.status}${output.exitCode === null ? "" : `, exit code ${output.exitCode}`}) without printing a line matching /${output.pattern}/.`,
        ...(output.tail.length > 0 ? ["Last lines:", lines(output.tail)] : ["It printed nothing new."]),
        `Full output: ${output.outputPath}`,
      ].join("\n");
    case "timeout":
      return [
        `No line matching /${output.pattern}/ within ${output.timeoutMs} ms; task ${output.taskId} is still ${output.status}. Wait again with Monitor, read it with TaskOutput, or end it with TaskStop.`,
        ...(output.tail.length > 0 ? ["Last lines:", lines(output.tail)] : []),
      ].join("\n");
    case "aborted":
      return `Stopped waiting on task ${output.taskId}: the call was interrupted.`;
  }
}

export const MonitorTool = buildTool<MonitorInput, MonitorOutput>({
  ...monitorToolMeta,
  searchHint: "wait until a background task prints a line matching a pattern, or exits",
  inputSchema,
  maxResultSizeChars: 20_000,
  prompt: () => {
    prompt ??= readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();
    return prompt;
  },
  description: (input) => `Wait for /${input.pattern}/ in task ${input.task_id}`,
  isReadOnly: true,
  isConcurrencySafe: true,
  interruptBehavior: () => "cancel",
  // Watching a task this session started reveals nothing the session could not already see.
  checkPermissions: allowedByTool("watches output of the session's own background task"),
  validateInput: (input) => {
    const compiled = compile(input);
    return typeof compiled === "string"
      ? {
          result: false,
          errorCode: "invalid_input",
          message: `pattern is not a valid JavaScript regular expression (${compiled}). Escape special characters such as ( [ . * with a backslash.`,
        }
      : { result: true };
  },

  async call(input, context) {
    const sessionId = context.options.sessionId;
    const timeoutMs = input.timeout ?? DEFAULT_WAIT_MS;
    const result = await monitorTaskOutput(sessionId, input.task_id, {
      pattern: compile(input) as RegExp,
      timeoutMs,
      signal: context.abortController.signal,
    });
    if (!result) throw unknownTaskError(sessionId, input.task_id);
    return {
      data: {
        taskId: result.task.id,
        command: result.task.command,
        pattern: input.pattern,
        stoppedBecause: result.stoppedBecause,
        matches: result.matches,
        tail: result.tail,
        status: result.task.status,
        exitCode: result.task.exitCode,
        outputPath: result.task.outputPath,
        timeoutMs,
      },
    };
  },

  mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
    return { type: "tool_result", tool_use_id: toolUseId, content: resultText(output) };
  },
  renderToolUse: (input) => ({ kind: "text", text: `Monitor ${input.task_id} for /${input.pattern}/` }),
  renderToolResult: (output) => ({ kind: "text", text: resultText(output) }),
});
