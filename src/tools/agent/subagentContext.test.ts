import { describe, expect, it } from "vitest";
import type { PermissionMode } from "../../permissions/types.ts";
import { addRules } from "../../tool/context.ts";
import { createToolUseContext } from "../../tool/createContext.ts";
import { subagentContext } from "./subagentContext.ts";

function parent(mode: PermissionMode = "default") {
  return createToolUseContext({ tools: [], cwd: "/work/project", mode });
}

describe("a sub-agent's context", () => {
  it.each([
    ["default", "plan", "plan"],
    ["bypassPermissions", "plan", "plan"],
    ["acceptEdits", undefined, "acceptEdits"],
    ["dontAsk", "plan", "dontAsk"],
  ] as const)("session %s with agent mode %s -> %s", (session, agent, expected) => {
    const child = subagentContext(parent(session), {
      agentId: "agent_1",
      tools: [],
      cwd: "/work/project",
      ...(agent ? { mode: agent } : {}),
    });
    expect(child.getAppState().toolPermissionContext.mode).toBe(expected);
  });

  it("keeps its own directory and worktree root; rules it adds reach the session with the session's root and mode", () => {
    const session = parent();
    const child = subagentContext(session, {
      agentId: "agent_1",
      tools: [],
      cwd: "/tmp/wt",
      projectRoot: "/tmp/wt",
      mode: "plan",
    });
    expect(child.agentId).toBe("agent_1");
    expect(child.getAppState().toolPermissionContext.projectRoot).toBe("/tmp/wt");
    child.setAppState((state) => ({ ...state, cwd: "/tmp/wt/sub" }));
    expect(child.getAppState().cwd).toBe("/tmp/wt/sub");
    expect(session.getAppState().cwd).toBe("/work/project");
    child.setAppState((state) => ({
      ...state,
      toolPermissionContext: addRules(state.toolPermissionContext, "allow", "session", ["Read"]),
    }));
    const policy = session.getAppState().toolPermissionContext;
    expect(policy.alwaysAllowRules.session).toEqual(["Read"]);
    expect([policy.projectRoot, policy.mode]).toEqual(["/work/project", "default"]);
    expect(child.getAppState().toolPermissionContext.alwaysAllowRules.session).toEqual(["Read"]);
  });

  it("a fork starts with what the parent read; others start with nothing; aborting the child leaves the parent", () => {
    const session = parent();
    session.readFileState.set("/work/project/a.ts", {
      content: "x",
      hash: "h",
      mtimeMs: 1,
      isPartialView: false,
    });
    const fork = subagentContext(session, {
      agentId: "a",
      tools: [],
      cwd: "/work/project",
      inheritReads: true,
    });
    const fresh = subagentContext(session, { agentId: "b", tools: [], cwd: "/work/project" });
    expect(fork.readFileState.has("/work/project/a.ts")).toBe(true);
    expect(fresh.readFileState.has("/work/project/a.ts")).toBe(false);
    fork.abortController.abort();
    expect(session.abortController.signal.aborted).toBe(false);
  });
});
