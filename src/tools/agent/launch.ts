// Everything a sub-agent needs before its first request: its type, id, tools, context, prompt and, for
// a fork, the parent's conversation; for `isolation: "worktree"`, its worktree.

import type { ToolUseContext } from "../../tool/context.ts";
import { ToolError } from "../../tool/errors.ts";
import { randomBytes } from "../../tool/lazyCrypto.ts";
import type { Message, ToolUseBlock } from "../../tool/messages.ts";
import { agentMemoryDir, agentMemorySection } from "./agentMemory.ts";
import { type AgentType, DEFAULT_AGENT_TYPE, FORK_TYPE, findAgentType } from "./agentTypes.ts";
import { forkDirective, forkHistory } from "./fork.ts";
import type { AgentRuntime, SubagentInstructions, SubagentLoop } from "./runtime.ts";
import { subagentContext } from "./subagentContext.ts";
import { toolsForAgent } from "./toolsForAgent.ts";
import { createWorktree, finishWorktree, type Worktree } from "./worktree.ts";

export interface AgentToolInput {
  description: string;
  prompt: string;
  subagent_type?: string | undefined;
  model?: string | undefined;
  run_in_background?: boolean | undefined;
  isolation?: "worktree" | "remote" | undefined;
  name?: string | undefined;
  /** Accepted for Claude Code's schema and ignored (one implicit team; the session's mode). */
  team_name?: string | undefined;
  mode?: string | undefined;
}

export interface LaunchedAgent {
  agentId: string;
  type: AgentType;
  fork: boolean;
  loop: SubagentLoop;
  /** The sub-agent's own context (its abort controller stops its calls). */
  context: ToolUseContext;
  /** What the sub-agent is told first. */
  prompt: string;
  cwd: string;
  worktree?: Worktree;
  /** Messages for the person from SubagentStart hooks. */
  userMessages: string[];
}

export function newAgentId(): string {
  return `agent_${randomBytes(4).toString("hex")}`;
}

function worktreeNotice(worktree: Worktree): string {
  return `You work in an isolated git worktree at ${worktree.path}, on the new branch ${worktree.branch}, made from the repository at ${worktree.repoRoot}. Make every change there: a path under ${worktree.repoRoot} in your task means the same path under ${worktree.path}. Commit your work on ${worktree.branch} if the task asks for commits; otherwise leave the changes in the worktree.`;
}

export interface LaunchArgs {
  input: AgentToolInput;
  context: ToolUseContext;
  runtime: AgentRuntime;
  types: readonly AgentType[];
  parentMessage: ToolUseBlock | undefined;
  env: NodeJS.ProcessEnv;
}

export async function launchAgent(args: LaunchArgs): Promise<LaunchedAgent> {
  const { input, context, runtime } = args;
  const typeName = input.subagent_type ?? DEFAULT_AGENT_TYPE;
  const type = findAgentType(args.types, typeName);
  if (!type) throw new ToolError("not_found", `No agent type "${typeName}".`);
  const fork = type.name === FORK_TYPE;
  if (fork && !args.parentMessage)
    throw new ToolError("no_agent_loop", "A fork needs the assistant message that asked for it.");
  const signal = context.abortController.signal;
  const agentId = newAgentId();
  const state = context.getAppState();
  const worktree =
    input.isolation === "worktree" ? await createWorktree(state.cwd, agentId, signal) : undefined;
  try {
    const cwd = worktree?.path ?? state.cwd;
    // A fork keeps the parent's pool exactly (its tools are part of the cached prefix).
    const tools = fork ? [...runtime.tools] : toolsForAgent(runtime.tools, type, runtime.depth + 1);
    const memoryDir =
      !fork && type.memory
        ? agentMemoryDir(type.name, type.memory, state.toolPermissionContext.projectRoot, args.env)
        : undefined;
    const child = subagentContext(context, {
      agentId,
      agentType: type.name,
      ...(memoryDir && type.memory
        ? { memory: { agentType: type.name, scope: type.memory, dir: memoryDir } }
        : {}),
      tools,
      cwd,
      ...(worktree ? { projectRoot: worktree.path } : {}),
      ...(type.permissionMode ? { mode: type.permissionMode } : {}),
      inheritReads: fork,
    });
    const started = await runtime.subagentStart({ agentId, agentType: type.name, context: child, signal });
    const extra = [...started.additionalContext, ...(worktree ? [worktreeNotice(worktree)] : [])];
    let history: Message[] | undefined;
    let system: SubagentInstructions | "inherit";
    let prompt: string;
    if (fork) {
      const assistant = await runtime.assistantMessage(args.parentMessage!.id, signal);
      history = forkHistory(context.messages, assistant);
      system = "inherit";
      prompt = forkDirective(input.prompt);
    } else {
      const memory = agentMemorySection(type, state.toolPermissionContext.projectRoot, args.env);
      system = { instructions: type.prompt, ...(memory ? { sections: [memory] } : {}) };
      prompt = input.prompt;
    }
    if (extra.length > 0) prompt = `${prompt}\n\n${extra.join("\n\n")}`;
    const names = new Set(tools.map((tool) => tool.name));
    const loop = runtime.createLoop({
      agentId,
      agentType: type.name,
      ...(fork ? {} : { model: input.model ?? type.model }),
      ...(type.maxTurns ? { maxTurns: type.maxTurns } : {}),
      tools,
      system,
      ...(history ? { history } : {}),
      loadedTools: runtime.loadedTools.filter((name) => names.has(name)),
      context: child,
    });
    return {
      agentId,
      type,
      fork,
      loop,
      context: child,
      prompt,
      cwd,
      ...(worktree ? { worktree } : {}),
      userMessages: started.userMessages,
    };
  } catch (error) {
    if (worktree) await finishWorktree(worktree).catch(() => undefined);
    throw error;
  }
}
