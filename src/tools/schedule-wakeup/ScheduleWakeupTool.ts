// ScheduleWakeup: the session wakes itself once, after a delay (clamped to 60-3600 s), with a prompt: for
// polling something slow (a CI run, a deploy) without a cron job. One wakeup per session; a new one
// replaces it, `stop: true` cancels it.
import { readFileSync } from "node:fs";
import * as z from "zod";
import { ToolError } from "../../tool/errors.ts";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { allowedByTool, buildTool } from "../../tool/Tool.ts";
import { localTime, requireScheduler } from "../schedule-shared/format.ts";
import { WAKEUP_MAX_SECONDS, WAKEUP_MIN_SECONDS } from "../schedule-shared/scheduler.ts";
import { scheduleWakeupToolMeta } from "./meta.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

const inputSchema = z.strictObject({
  delaySeconds: z
    .number()
    .finite()
    .optional()
    .describe(`Seconds until the wakeup; clamped to ${WAKEUP_MIN_SECONDS}-${WAKEUP_MAX_SECONDS}`),
  reason: z.string().trim().min(1).describe("Why the session wakes up then (shown to the user)"),
  prompt: z.string().optional().describe("The prompt to run at the wakeup"),
  stop: z.boolean().optional().describe("true: cancel the pending wakeup instead (end the loop)"),
});

export type ScheduleWakeupInput = z.infer<typeof inputSchema>;

export interface ScheduleWakeupOutput {
  stopped?: boolean;
  at?: number;
  delaySeconds?: number;
  requestedSeconds?: number;
  reason: string;
}

function resultText(output: ScheduleWakeupOutput): string {
  if (output.stopped) return `No wakeup is pending now (${output.reason}).`;
  const clamped =
    output.requestedSeconds !== undefined && output.requestedSeconds !== output.delaySeconds
      ? ` (asked for ${output.requestedSeconds} s; wakeups are ${WAKEUP_MIN_SECONDS}-${WAKEUP_MAX_SECONDS} s away)`
      : "";
  return `Wakeup set for ${localTime(output.at)}, in ${output.delaySeconds} s${clamped}: ${output.reason}. The prompt runs then, once the session is idle, under the permissions in force at that moment; a later ScheduleWakeup replaces it, stop: true cancels it.`;
}

export const ScheduleWakeupTool = buildTool<ScheduleWakeupInput, ScheduleWakeupOutput>({
  ...scheduleWakeupToolMeta,
  searchHint: "wake this session up later with a prompt",
  inputSchema,
  maxResultSizeChars: 5_000,
  requiresAgentLoop: true,
  prompt: () => PROMPT,
  description: (input) => (input.stop ? "Cancel the wakeup" : `Wake up in ${input.delaySeconds ?? "?"} s`),
  isReadOnly: true,
  isConcurrencySafe: false,
  checkPermissions: allowedByTool("a prompt for this session, run under its permissions when it fires"),
  async validateInput(input) {
    if (input.stop) return { result: true };
    if (input.delaySeconds === undefined || !input.prompt?.trim())
      return {
        result: false,
        errorCode: "invalid_input",
        message: "Give delaySeconds and prompt for a wakeup (or stop: true to cancel the pending one).",
      };
    return { result: true };
  },
  async call(input, context) {
    const scheduler = requireScheduler(context);
    if (input.stop) {
      const cancelled = scheduler.cancelWakeup();
      return {
        data: { stopped: true, reason: cancelled ? `cancelled: ${cancelled.reason}` : "none was pending" },
      };
    }
    if (input.delaySeconds === undefined || !input.prompt)
      throw new ToolError("invalid_input", "delaySeconds and prompt are needed");
    const wakeup = scheduler.scheduleWakeup({
      delaySeconds: input.delaySeconds,
      reason: input.reason,
      prompt: input.prompt,
    });
    return {
      data: {
        at: wakeup.at,
        delaySeconds: wakeup.delaySeconds,
        requestedSeconds: input.delaySeconds,
        reason: input.reason,
      },
    };
  },
  mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
    return { type: "tool_result", tool_use_id: toolUseId, content: resultText(output) };
  },
  renderToolResult: (output) => ({ kind: "text", text: resultText(output) }),
});
