// The decision as a value. Every surface (the agent's pipeline, `keel mcp`, `keel tool`, `keel check`,
// `keel hook <agent>`, the adapters) builds one Call and hands it to decide(). decide reads only the
// Call: the tool and its validated input, the folder, the policy (rules, mode, working folders, and the
// caller's home, temp folder and environment: ToolPermissionContext.caller) and the session state a
// tool's own check may read. It never reads process.cwd(), process.env or a terminal, and never changes
// the session, so the same Call decides the same in a fresh process, in a decision server serving many
// callers at once, or in a test.
import type { AppState, ToolPermissionContext, ToolUseContext } from "../tool/context.ts";
import type { Tool } from "../tool/Tool.ts";
import { decidePermission } from "./engine.ts";
import type { PermissionDecision } from "./types.ts";

/**
 * Who can answer an ask: a person (a terminal dialog, or the governed agent's own prompt), a form (an
 * MCP client's elicitation), or nobody (`keel -p`, a headless server: an ask is then refused).
 */
export type Asker = "person" | "form" | "nobody";

export interface Call<Input = unknown> {
  readonly tool: Tool<Input>;
  /** Validated against the tool's schema (and the tool's own validation). */
  readonly input: Input;
  /** The folder the call starts in (Bash: the shell's current folder). */
  readonly cwd: string;
  /** Rules, mode, working folders and the caller's environment, frozen. */
  readonly policy: ToolPermissionContext;
  readonly asker: Asker;
  /** The session the call belongs to: tools' own checks read its state (read files, agent memory). */
  readonly session: ToolUseContext;
}

/** A Call for a tool call of a session, as the session stands now (its folder and policy). */
export function callInSession<Input>(
  tool: Tool<Input>,
  input: Input,
  session: ToolUseContext,
  asker: Asker,
): Call<Input> {
  const { cwd, toolPermissionContext } = session.getAppState();
  return { tool, input, cwd, policy: toolPermissionContext, asker, session };
}

/** Decides one call: the permission order of engine.ts, on the call's own folder and policy. */
export function decide<Input>(call: Call<Input>): Promise<PermissionDecision<Input>> {
  return decidePermission(call.tool, call.input, decisionView(call), call.policy);
}

/**
 * The session as the call sees it: its folder and policy fixed to the call's, and no way to change it
 * (a check that tries is a check that failed: the engine asks).
 */
function decisionView(call: Call<unknown>): ToolUseContext {
  const state: AppState = {
    ...call.session.getAppState(),
    cwd: call.cwd,
    toolPermissionContext: call.policy,
  };
  return {
    ...call.session,
    getAppState: () => state,
    setAppState: () => {
      throw new Error("a permission check may not change the session");
    },
  };
}

/** Asks that only a person may answer: an ask rule, a safety check, or a tool needing a person. */
export function isHardAsk(decision: PermissionDecision, tool: Tool): boolean {
  if (decision.behavior !== "ask") return false;
  const type = decision.decisionReason.type;
  return (
    (type === "rule" &&
      decision.decisionReason.type === "rule" &&
      decision.decisionReason.rule.behavior === "ask") ||
    type === "safetyCheck" ||
    (tool.requiresUserInteraction?.() ?? false)
  );
}
