// CronDelete: removes a scheduled job by id (a durable one from the project's file too).
import { readFileSync } from "node:fs";
import * as z from "zod";
import { ToolError } from "../../tool/errors.ts";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { allowedByTool, buildTool } from "../../tool/Tool.ts";
import { jobLine, requireScheduler, schedulerCall } from "../schedule-shared/format.ts";
import type { CronJob } from "../schedule-shared/scheduler.ts";
import { cronDeleteToolMeta } from "./meta.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

const inputSchema = z.strictObject({
  id: z.string().trim().min(1).describe("The job id CronCreate returned (CronList lists them)"),
});

export type CronDeleteInput = z.infer<typeof inputSchema>;

export interface CronDeleteOutput {
  deleted: CronJob;
}

export const CronDeleteTool = buildTool<CronDeleteInput, CronDeleteOutput>({
  ...cronDeleteToolMeta,
  searchHint: "delete a scheduled cron job",
  inputSchema,
  maxResultSizeChars: 5_000,
  requiresAgentLoop: true,
  prompt: () => PROMPT,
  description: (input) => `Delete job ${input.id}`,
  isReadOnly: false,
  isConcurrencySafe: false,
  checkPermissions: allowedByTool("removing a scheduled prompt only makes the session do less"),
  async call(input, context) {
    const scheduler = requireScheduler(context);
    const deleted = await schedulerCall(() => scheduler.delete(input.id));
    if (!deleted) {
      const ids = scheduler.list().map((job) => job.id);
      throw new ToolError(
        "not_found",
        `No scheduled job "${input.id}". ${ids.length > 0 ? `Jobs: ${ids.join(", ")}.` : "There are none."}`,
      );
    }
    return { data: { deleted } };
  },
  mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
    return { type: "tool_result", tool_use_id: toolUseId, content: `Deleted ${jobLine(output.deleted)}` };
  },
  renderToolResult: (output) => ({ kind: "text", text: `Deleted ${output.deleted.id}` }),
});
