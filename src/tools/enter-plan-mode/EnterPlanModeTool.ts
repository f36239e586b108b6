// EnterPlanMode: the session's permission mode becomes "plan" (read-only tools only) until ExitPlanMode
// is approved; the mode it replaces is remembered for then.
import { readFileSync } from "node:fs";
import * as z from "zod";
import type { PermissionMode } from "../../permissions/types.ts";
import { ToolError } from "../../tool/errors.ts";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { allowedByTool, buildTool, type Tool } from "../../tool/Tool.ts";
import { enterPlanModeToolMeta } from "./meta.ts";
import { currentMode, switchMode } from "./planModeState.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

const inputSchema = z.strictObject({});
export type EnterPlanModeInput = z.infer<typeof inputSchema>;
export interface EnterPlanModeOutput {
  previousMode: PermissionMode;
  alreadyInPlanMode: boolean;
}

function render(output: EnterPlanModeOutput): string {
  const head = output.alreadyInPlanMode
    ? "The session is already in plan mode."
    : "Entered plan mode. Only read-only tools run now: do not edit files or run commands that change anything.";
  return `${head}\nExplore the code and think the approach through, ask the user about open questions (AskUserQuestion), then present a concrete plan with ExitPlanMode for approval.`;
}

export const EnterPlanModeTool: Tool<EnterPlanModeInput, EnterPlanModeOutput> = buildTool<
  EnterPlanModeInput,
  EnterPlanModeOutput
>({
  ...enterPlanModeToolMeta,
  searchHint: "switch to plan mode (read-only) before implementing",
  inputSchema,
  maxResultSizeChars: 5_000,
  requiresAgentLoop: true,
  prompt: () => PROMPT,
  description: () => "Enter plan mode",
  // It only takes powers away.
  isReadOnly: true,
  isConcurrencySafe: false,
  checkPermissions: allowedByTool("entering plan mode only restricts what runs"),

  async call(_input, context) {
    if (context.agentId !== undefined)
      throw new ToolError(
        "not_allowed",
        "A sub-agent cannot change the session's permission mode. Plan within your task and report back instead.",
      );
    const previousMode = currentMode(context);
    if (previousMode === "plan") return { data: { previousMode, alreadyInPlanMode: true } };
    switchMode(context, "plan", previousMode);
    return { data: { previousMode, alreadyInPlanMode: false } };
  },

  mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
    return { type: "tool_result", tool_use_id: toolUseId, content: render(output) };
  },
  renderToolResult: () => ({ kind: "text", text: "Plan mode on" }),
});
