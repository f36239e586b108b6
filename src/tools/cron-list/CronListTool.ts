// CronList: the scheduled jobs this session runs (its own, and the project's durable ones), one a line.
import { readFileSync } from "node:fs";
import * as z from "zod";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { allowedByTool, buildTool } from "../../tool/Tool.ts";
import { jobLine, localTime, requireScheduler } from "../schedule-shared/format.ts";
import type { CronJob, Wakeup } from "../schedule-shared/scheduler.ts";
import { cronListToolMeta } from "./meta.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

const inputSchema = z.strictObject({});

export type CronListInput = z.infer<typeof inputSchema>;

export interface CronListOutput {
  jobs: CronJob[];
  wakeup?: Wakeup;
}

function resultText(output: CronListOutput): string {
  const lines = output.jobs.map(jobLine);
  if (output.wakeup)
    lines.push(`wakeup at ${localTime(output.wakeup.at)} (ScheduleWakeup): ${output.wakeup.reason}`);
  return lines.length > 0 ? lines.join("\n") : "No scheduled jobs. CronCreate makes one.";
}

export const CronListTool = buildTool<CronListInput, CronListOutput>({
  ...cronListToolMeta,
  searchHint: "list scheduled cron jobs",
  inputSchema,
  maxResultSizeChars: 20_000,
  requiresAgentLoop: true,
  prompt: () => PROMPT,
  description: () => "List scheduled jobs",
  isReadOnly: true,
  isConcurrencySafe: true,
  checkPermissions: allowedByTool("lists the session's own scheduled jobs"),
  async call(_input, context) {
    const scheduler = requireScheduler(context);
    const wakeup = scheduler.wakeup;
    return { data: { jobs: scheduler.list(), ...(wakeup ? { wakeup } : {}) } };
  },
  mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
    return { type: "tool_result", tool_use_id: toolUseId, content: resultText(output) };
  },
  renderToolResult: (output) => ({ kind: "text", text: resultText(output) }),
});
