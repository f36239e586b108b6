// ExitPlanMode: shows the plan to a person; on approval the mode from before plan mode comes back.
import { readFileSync } from "node:fs";
import * as z from "zod";
import type { PermissionMode } from "../../permissions/types.ts";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { buildTool, type Tool } from "../../tool/Tool.ts";
import { currentMode, modeBeforePlan, switchMode } from "../enter-plan-mode/planModeState.ts";
import { exitPlanModeToolMeta } from "./meta.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

const inputSchema = z.strictObject({
  plan: z.string().trim().min(1).describe("The plan to approve, in Markdown"),
});
export type ExitPlanModeInput = z.infer<typeof inputSchema>;
export interface ExitPlanModeOutput {
  plan: string;
  restoredMode: PermissionMode;
}

export const ExitPlanModeTool: Tool<ExitPlanModeInput, ExitPlanModeOutput> = buildTool<
  ExitPlanModeInput,
  ExitPlanModeOutput
>({
  ...exitPlanModeToolMeta,
  searchHint: "present the plan for approval and leave plan mode",
  inputSchema,
  maxResultSizeChars: 50_000,
  requiresAgentLoop: true,
  prompt: () => PROMPT,
  description: () => "Present the plan for approval",
  // It runs in plan mode, where only read-only tools may; the change it makes is the person's approval.
  isReadOnly: true,
  isConcurrencySafe: false,
  // Only a person may approve a plan: no rule, mode or classifier says yes for them.
  requiresUserInteraction: () => true,
  checkPermissions: async (input) => ({
    behavior: "ask",
    message: `Approve this plan and leave plan mode?\n\n${input.plan}`,
    decisionReason: { type: "tool", reason: "a plan needs the user's approval" },
  }),

  validateInput(_input, context) {
    if (currentMode(context) !== "plan")
      return {
        result: false,
        errorCode: "wrong_state",
        message: "The session is not in plan mode, so there is no plan to approve. Go ahead with the work.",
      };
    return { result: true };
  },

  async call(input, context) {
    const before = modeBeforePlan(context);
    const restoredMode = before === undefined || before === "plan" ? "default" : before;
    switchMode(context, restoredMode, undefined);
    return { data: { plan: input.plan, restoredMode } };
  },

  mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
    return {
      type: "tool_result",
      tool_use_id: toolUseId,
      content: `The user approved your plan; plan mode is off (permission mode: ${output.restoredMode}). Start implementing it now, and track the steps with your task list if it helps.\n\nThe approved plan:\n${output.plan}`,
    };
  },
  renderToolUse: (input) => ({ kind: "text", text: input.plan }),
  renderToolResult: (output) => ({ kind: "text", text: `Plan approved (mode: ${output.restoredMode})` }),
});
