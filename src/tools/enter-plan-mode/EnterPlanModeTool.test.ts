import { describe, expect, it } from "vitest";
import { createToolUseContext } from "../../tool/createContext.ts";
import { invokeTool } from "../tasks-shared/testing.ts";
import { EnterPlanModeTool } from "./EnterPlanModeTool.ts";
import { modeBeforePlan } from "./planModeState.ts";

describe("EnterPlanMode", () => {
  it("sets the session's mode to plan and remembers the mode it replaced", async () => {
    const context = createToolUseContext({ tools: [], mode: "acceptEdits", allow: ["Read"] });
    const { data, text } = await invokeTool(EnterPlanModeTool, {}, context);
    const permissions = context.getAppState().toolPermissionContext;
    expect(permissions.mode).toBe("plan");
    expect(permissions.alwaysAllowRules.cliArg).toEqual(["Read"]);
    expect(Object.isFrozen(permissions)).toBe(true);
    expect(modeBeforePlan(context)).toBe("acceptEdits");
    expect(data.previousMode).toBe("acceptEdits");
    expect(text).toContain("ExitPlanMode");
  });

  it("is read-only (allowed in plan mode) and allowed without asking", async () => {
    const context = createToolUseContext({ tools: [] });
    expect(EnterPlanModeTool.isReadOnly({})).toBe(true);
    expect((await EnterPlanModeTool.checkPermissions({}, context)).behavior).toBe("allow");
  });
});
