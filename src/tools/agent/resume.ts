// Resuming a finished sub-agent: SendMessage to its name or id continues it in the background with
// everything it had (its conversation and what it had read), and its answer comes back as a task
// notification. Its loop is reused while it is still in memory; otherwise (an older agent, or a session
// continued with `keel -c`) the loop is rebuilt from its transcript and record (agentRecords.ts).
import { statSync } from "node:fs";
import { readTranscript } from "../../agent/transcript.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { ToolError } from "../../tool/errors.ts";
import type { Message } from "../../tool/messages.ts";
import { agentMemoryDir, agentMemorySection } from "./agentMemory.ts";
import { agentTranscriptFile, loadAgentRecords, restoreReads, transcriptExists } from "./agentRecords.ts";
import { agentTypeRoots, FORK_TYPE, findAgentType, loadAgentTypes } from "./agentTypes.ts";
import type { LaunchedAgent } from "./launch.ts";
import { startInBackground } from "./run.ts";
import { type RegisteredAgent, setAgentStatus } from "./runningAgents.ts";
import { type AgentRuntime, agentRuntimeOf } from "./runtime.ts";
import { subagentContext } from "./subagentContext.ts";
import { toolsForAgent } from "./toolsForAgent.ts";

export interface ResumedAgent {
  taskId: string;
  outputPath: string;
  /** "memory": its loop was still here; "transcript": rebuilt from what the session saved. */
  from: "memory" | "transcript";
}

/** Continues a finished agent with `message` in the background. */
export async function resumeAgent(
  target: RegisteredAgent,
  message: string,
  context: ToolUseContext,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ResumedAgent> {
  const runtime = agentRuntimeOf(context);
  if (!runtime)
    throw new ToolError(
      "no_agent_loop",
      "Resuming an agent needs Keel's agent loop; start a new Agent instead.",
    );
  const kept = target.launched;
  const reusable = kept && !kept.context.abortController.signal.aborted;
  // A reused loop's worktree was settled when it ended; the agent goes on where it was.
  const launched: LaunchedAgent = reusable
    ? { ...kept, prompt: message, userMessages: [] }
    : await rebuild(target, message, context, runtime, env);
  delete launched.worktree;
  const sessionId = context.options.sessionId;
  target.launched = launched;
  target.background = true;
  target.send = (text) => launched.loop.send(text);
  setAgentStatus(sessionId, target.id, "running");
  try {
    const task = await startInBackground(launched, { context, runtime, description: target.description });
    return { ...task, from: reusable ? "memory" : "transcript" };
  } catch (error) {
    setAgentStatus(sessionId, target.id, "failed");
    throw error;
  }
}

function isFolder(path: string | undefined): path is string {
  if (!path) return false;
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

async function rebuild(
  target: RegisteredAgent,
  message: string,
  context: ToolUseContext,
  runtime: AgentRuntime,
  env: NodeJS.ProcessEnv,
): Promise<LaunchedAgent> {
  const dir = target.recordDir;
  if (!dir || !transcriptExists(dir, target.id))
    throw new ToolError(
      "wrong_state",
      `Agent ${target.id} cannot be resumed: its transcript was not kept (a session without a transcript, or one of more than the latest agents). Start a new Agent instead.`,
    );
  const record = loadAgentRecords(dir).find((entry) => entry.id === target.id);
  const state = context.getAppState();
  const projectRoot = state.toolPermissionContext.projectRoot;
  const { types } = await loadAgentTypes(agentTypeRoots(projectRoot, env));
  const type = findAgentType(types, target.agentType);
  if (!type)
    throw new ToolError(
      "not_found",
      `Agent ${target.id} was of type "${target.agentType}", which no longer exists. Start a new Agent instead.`,
    );
  const fork = type.name === FORK_TYPE;
  const tools = fork ? [...runtime.tools] : toolsForAgent(runtime.tools, type, runtime.depth + 1);
  const worktree = isFolder(record?.worktree?.path) ? record?.worktree : undefined;
  const cwd = isFolder(record?.cwd) ? (record?.cwd as string) : state.cwd;
  const memoryDir =
    !fork && type.memory ? agentMemoryDir(type.name, type.memory, projectRoot, env) : undefined;
  const child = subagentContext(context, {
    agentId: target.id,
    agentType: type.name,
    ...(memoryDir && type.memory
      ? { memory: { agentType: type.name, scope: type.memory, dir: memoryDir } }
      : {}),
    tools,
    cwd,
    ...(worktree ? { projectRoot: worktree.path } : {}),
    ...(type.permissionMode ? { mode: type.permissionMode } : {}),
  });
  restoreReads(child.readFileState, record?.reads ?? []);
  const history = withoutDanglingCalls(readTranscript(agentTranscriptFile(dir, target.id)).messages);
  const memory = fork ? undefined : agentMemorySection(type, projectRoot, env);
  const loop = runtime.createLoop({
    agentId: target.id,
    agentType: type.name,
    ...(fork ? {} : { model: record?.model || type.model }),
    tools,
    system: fork ? "inherit" : { instructions: type.prompt, ...(memory ? { sections: [memory] } : {}) },
    history,
    context: child,
  });
  return { agentId: target.id, type, fork, loop, context: child, prompt: message, cwd, userMessages: [] };
}

/** A conversation cut off mid-call (the process ended) must not end on calls that have no results. */
function withoutDanglingCalls(messages: Message[]): Message[] {
  const last = messages.at(-1);
  if (
    last?.role === "assistant" &&
    typeof last.content !== "string" &&
    last.content.some((block) => block.type === "tool_use")
  )
    return messages.slice(0, -1);
  return messages;
}
