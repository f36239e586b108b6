// CronCreate: a prompt to run on a 5-field cron schedule in local time, for this session (default) or,
// with `durable`, kept in the project's `.keel/scheduled_tasks.json` for every session opened there.
import { readFileSync } from "node:fs";
import * as z from "zod";
import type { PermissionResult } from "../../permissions/types.ts";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { buildTool } from "../../tool/Tool.ts";
import { checkCron } from "../schedule-shared/cron.ts";
import { localTime, requireScheduler, schedulerCall } from "../schedule-shared/format.ts";
import { cronCreateToolMeta } from "./meta.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

const inputSchema = z.strictObject({
  cron: z
    .string()
    .trim()
    .min(1)
    .describe(
      'Standard 5-field cron expression in local time: "M H DoM Mon DoW" (e.g. "*/5 * * * *" = every 5 minutes)',
    ),
  prompt: z.string().min(1).describe("The prompt to run at each fire time"),
  recurring: z
    .boolean()
    .optional()
    .describe(
      "true (default): fire at every match until deleted or expired (30 days); false: fire once, then delete",
    ),
  durable: z
    .boolean()
    .optional()
    .describe(
      "true: keep the job in .keel/scheduled_tasks.json so it survives restarts and fires in any session open in this project; false (default): this session only",
    ),
});

export type CronCreateInput = z.infer<typeof inputSchema>;

export interface CronCreateOutput {
  id: string;
  cron: string;
  recurring: boolean;
  durable: boolean;
  nextFireAt: number;
  expiresAt?: number;
  file?: string;
}

function resultText(output: CronCreateOutput): string {
  const lines = [
    `Scheduled ${output.id} ("${output.cron}", local time), ${output.recurring ? "recurring" : "one-shot"}; next fire ${localTime(output.nextFireAt)}.`,
    output.expiresAt !== undefined
      ? `It expires ${localTime(output.expiresAt)} (30 days): its last run then, and it is deleted.`
      : "It fires once, then is deleted.",
    output.durable
      ? `Durable: kept in ${output.file}. It fires only while a Keel session is open in this project (any session); a run missed while none was open fires once when the next one opens.`
      : "It lives in this session only and ends with it.",
    "When it fires, the prompt waits until the session is idle, and runs under the permissions in force then. CronDelete removes it.",
  ];
  return lines.join("\n");
}

export const CronCreateTool = buildTool<CronCreateInput, CronCreateOutput>({
  ...cronCreateToolMeta,
  searchHint: "schedule a prompt on a cron schedule (recurring or one-shot)",
  inputSchema,
  maxResultSizeChars: 5_000,
  requiresAgentLoop: true,
  prompt: () => PROMPT,
  description: (input) => `Schedule "${input.cron}"`,
  isReadOnly: (input) => input.durable !== true,
  isConcurrencySafe: false,
  async validateInput(input) {
    const checked = checkCron(input.cron);
    return checked.ok
      ? { result: true }
      : { result: false, errorCode: "invalid_input", message: checked.message };
  },
  // A session job ends with the session; a durable one makes prompts run in later sessions of the project.
  async checkPermissions(input): Promise<PermissionResult<CronCreateInput>> {
    if (input.durable !== true)
      return {
        behavior: "allow",
        updatedInput: input,
        decisionReason: {
          type: "tool",
          reason: "a prompt for this session, run under its permissions when it fires",
        },
      };
    return {
      behavior: "passthrough",
      message:
        "CronCreate with durable: true needs approval: it keeps a prompt in .keel/scheduled_tasks.json that later sessions in this project will run",
    };
  },

  async call(input, context) {
    const scheduler = requireScheduler(context);
    const job = await schedulerCall(() =>
      scheduler.create({
        cron: input.cron,
        prompt: input.prompt,
        recurring: input.recurring ?? true,
        durable: input.durable ?? false,
      }),
    );
    return {
      data: {
        id: job.id,
        cron: job.cron,
        recurring: job.recurring,
        durable: job.durable,
        nextFireAt: job.nextFireAt ?? 0,
        ...(job.expiresAt !== undefined ? { expiresAt: job.expiresAt } : {}),
        ...(job.durable && scheduler.durableFile ? { file: scheduler.durableFile } : {}),
      },
    };
  },

  mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
    return { type: "tool_result", tool_use_id: toolUseId, content: resultText(output) };
  },
  renderToolUse: (input) => ({
    kind: "text",
    text: `CronCreate "${input.cron}"${input.durable ? " (durable)" : ""}`,
  }),
  renderToolResult: (output) => ({ kind: "text", text: resultText(output) }),
});
