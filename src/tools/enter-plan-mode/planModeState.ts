// The mode to return to when a plan is approved, kept in the session's app state beside the permission
// context (a spread of the state keeps it; nothing global).
import type { PermissionMode } from "../../permissions/types.ts";
import { type AppState, type ToolUseContext, updatePermissionContext } from "../../tool/context.ts";

interface PlanModeAppState extends AppState {
  modeBeforePlan?: PermissionMode;
}

export function currentMode(context: ToolUseContext): PermissionMode {
  return context.getAppState().toolPermissionContext.mode;
}

export function modeBeforePlan(context: ToolUseContext): PermissionMode | undefined {
  return (context.getAppState() as PlanModeAppState).modeBeforePlan;
}

/** Switches the session to `mode`, remembering (or forgetting) the mode to restore after planning. */
export function switchMode(
  context: ToolUseContext,
  mode: PermissionMode,
  remember: PermissionMode | undefined,
): void {
  context.setAppState((previous) => {
    const next: PlanModeAppState = {
      ...previous,
      toolPermissionContext: updatePermissionContext(previous.toolPermissionContext, { mode }),
    };
    if (remember === undefined) delete next.modeBeforePlan;
    else next.modeBeforePlan = remember;
    return next;
  });
}
