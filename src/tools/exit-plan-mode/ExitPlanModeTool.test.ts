import { describe, expect, it } from "vitest";
import type { PermissionMode } from "../../permissions/types.ts";
import type { PipelineServices, Prompter } from "../../pipeline/services.ts";
import { echoTool, pipelineResult, resultSummary } from "../../pipeline/testing/tools.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { createToolUseContext } from "../../tool/createContext.ts";
import { EnterPlanModeTool } from "../enter-plan-mode/EnterPlanModeTool.ts";
import { ExitPlanModeTool } from "./ExitPlanModeTool.ts";

const writer = echoTool({ name: "Writer", isReadOnly: false });
const tools = [EnterPlanModeTool, ExitPlanModeTool, writer];

async function call(context: ToolUseContext, name: string, input: unknown, services: PipelineServices = {}) {
  return resultSummary(
    await pipelineResult({ type: "tool_use", id: `toolu_${name}`, name, input }, context, services),
  );
}

const mode = (context: ToolUseContext) => context.getAppState().toolPermissionContext.mode;

function person(answer: "approve" | "reject", editedPlan?: string): Prompter & { shown: string[] } {
  const shown: string[] = [];
  return {
    name: "test-person",
    shown,
    async ask(request) {
      shown.push(request.message);
      if (answer === "reject") return { behavior: "deny", reason: "split step 2 in two" };
      return {
        behavior: "allow",
        choice: "once",
        ...(editedPlan ? { updatedInput: { plan: editedPlan } } : {}),
      };
    },
  };
}

describe("plan mode", () => {
  it.each<PermissionMode>(["default", "acceptEdits", "bypassPermissions"])(
    "enters plan mode from %s, refuses changes, and restores %s once the plan is approved",
    async (start) => {
      const context = createToolUseContext({ tools, mode: start, allow: ["Writer"] });
      expect((await call(context, "EnterPlanMode", {})).isError).toBe(false);
      expect(mode(context)).toBe("plan");

      const refused = await call(context, "Writer", { text: "x" });
      expect(refused.code).toBe("permission_denied");
      expect(refused.text).toContain("plan mode");

      const prompter = person("approve");
      const exit = await call(context, "ExitPlanMode", { plan: "1. Edit a.ts\n2. Run tests" }, { prompter });
      expect(exit.isError).toBe(false);
      expect(prompter.shown[0]).toContain("1. Edit a.ts");
      expect(exit.text).toContain(`permission mode: ${start}`);
      expect(mode(context)).toBe(start);
      expect((await call(context, "Writer", { text: "x" })).isError).toBe(false);
    },
  );

  it("stays in plan mode when the person rejects the plan, and tells the model why", async () => {
    const context = createToolUseContext({ tools });
    await call(context, "EnterPlanMode", {});
    const exit = await call(context, "ExitPlanMode", { plan: "do it" }, { prompter: person("reject") });
    expect(exit.isError).toBe(true);
    expect(exit.text).toContain("split step 2 in two");
    expect(mode(context)).toBe("plan");
  });

  it("cannot leave plan mode without a person, even with an allow rule", async () => {
    const context = createToolUseContext({ tools, allow: ["ExitPlanMode"] });
    await call(context, "EnterPlanMode", {});
    const exit = await call(context, "ExitPlanMode", { plan: "do it" });
    expect(exit.code).toBe("permission_denied");
    expect(mode(context)).toBe("plan");
  });

  it("reports the plan as the person edited it", async () => {
    const context = createToolUseContext({ tools });
    await call(context, "EnterPlanMode", {});
    const exit = await call(
      context,
      "ExitPlanMode",
      { plan: "draft" },
      { prompter: person("approve", "edited plan") },
    );
    expect(exit.text).toContain("The approved plan:\nedited plan");
  });

  it("a session started in plan mode returns to default", async () => {
    const context = createToolUseContext({ tools, mode: "plan" });
    await call(context, "ExitPlanMode", { plan: "p" }, { prompter: person("approve") });
    expect(mode(context)).toBe("default");
  });

  it("refuses ExitPlanMode outside plan mode, and EnterPlanMode twice is harmless", async () => {
    const context = createToolUseContext({ tools });
    const early = await call(context, "ExitPlanMode", { plan: "p" }, { prompter: person("approve") });
    expect(early.code).toBe("wrong_state");
    await call(context, "EnterPlanMode", {});
    expect((await call(context, "EnterPlanMode", {})).text).toContain("already in plan mode");
    await call(context, "ExitPlanMode", { plan: "p" }, { prompter: person("approve") });
    expect(mode(context)).toBe("default");
  });

  it("refuses EnterPlanMode for a sub-agent", async () => {
    const context = createToolUseContext({ tools });
    context.agentId = "agent-1";
    expect((await call(context, "EnterPlanMode", {})).isError).toBe(true);
    expect(mode(context)).toBe("default");
  });
});
