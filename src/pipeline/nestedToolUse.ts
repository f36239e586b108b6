// One tool call made on the session's behalf outside the model's turn (a custom command's `!` lines
// and `@file` includes): the same pipeline, services and audit, with extra allow rules for this call
// only. The rules never reach the session: state the call writes back is stripped of them.

import {
  type AppState,
  addRules,
  type NestedToolCall,
  type NestedToolResult,
  type NestedToolRunner,
  removeRules,
  type ToolPermissionContext,
  type ToolUseContext,
} from "../tool/context.ts";
import { randomBytes } from "../tool/lazyCrypto.ts";
import { resultText } from "../tool/messages.ts";
import { type ResultEvent, runToolUse } from "./runToolUse.ts";
import type { PipelineServices } from "./services.ts";

/** The context a nested call runs in: the session's state, seen with the extra rules. */
function contextWithRules(context: ToolUseContext, rules: readonly string[]): ToolUseContext {
  if (rules.length === 0) return context;
  let memo: { from: ToolPermissionContext; to: ToolPermissionContext } | undefined;
  const view = (state: AppState): AppState => {
    if (memo?.from !== state.toolPermissionContext)
      memo = {
        from: state.toolPermissionContext,
        to: addRules(state.toolPermissionContext, "allow", "session", rules),
      };
    return { ...state, toolPermissionContext: memo.to };
  };
  return {
    ...context,
    getAppState: () => view(context.getAppState()),
    setAppState: (update) =>
      context.setAppState((previous) => {
        const seen = view(previous);
        const next = update(seen);
        if (next.toolPermissionContext === seen.toolPermissionContext)
          return { ...next, toolPermissionContext: previous.toolPermissionContext };
        return {
          ...next,
          toolPermissionContext: removeRules(next.toolPermissionContext, "allow", "session", rules),
        };
      }),
  };
}

function summarize(result: ResultEvent): NestedToolResult {
  const refused = result.decision === undefined || result.decision.behavior === "deny";
  return {
    text: resultText(result.block.content),
    isError: result.isError,
    refused: refused && result.isError,
    ...(result.decision ? { decidedBy: result.decision.decidedBy } : {}),
  };
}

/**
 * A runner for the session's context options. The orchestrator's gate is not used: the call that
 * makes nested calls (a Skill call, or none at all outside a turn) may be holding it.
 */
export function createNestedToolRunner(services: PipelineServices): NestedToolRunner {
  const { gate: _gate, ...ungated } = services;
  return async (call: NestedToolCall, context: ToolUseContext): Promise<NestedToolResult> => {
    const block = {
      type: "tool_use" as const,
      id: `toolu_nested_${randomBytes(6).toString("hex")}`,
      name: call.name,
      input: call.input,
    };
    let last: ResultEvent | undefined;
    for await (const event of runToolUse(block, contextWithRules(context, call.allowRules ?? []), ungated))
      if (event.type === "result") last = event;
    if (!last) return { text: `${call.name} returned no result.`, isError: true, refused: true };
    return summarize(last);
  };
}
