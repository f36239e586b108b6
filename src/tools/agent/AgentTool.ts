// Agent (alias Task): starts a sub-agent, the same loop with its own tools and prompt, in the foreground
// (its report is the result), in the background (a task id at once), as a fork of this conversation,
// or in its own git worktree. Every call the sub-agent makes goes through the permission pipeline.

import { readFileSync } from "node:fs";
import * as z from "zod";
import { agentRuleMatcher } from "../../permissions/matchers/agent.ts";
import type { RemoteQueueResolution } from "../../remote/config.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { ToolError, type ToolErrorCode } from "../../tool/errors.ts";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { allowedByTool, buildTool, type Tool, type ValidationResult } from "../../tool/Tool.ts";
import { subagentsDir } from "./agentRecords.ts";
import {
  type AgentType,
  agentTypeRoots,
  DEFAULT_AGENT_TYPE,
  FORK_TYPE,
  findAgentType,
  loadAgentTypes,
} from "./agentTypes.ts";
import { type AgentToolInput, launchAgent, newAgentId } from "./launch.ts";
import { agentToolMeta } from "./meta.ts";
import {
  type AgentUsageSummary,
  progressLine,
  reportText,
  runToEnd,
  startInBackground,
  stopAgent,
  usageLine,
  worktreeLine,
} from "./run.ts";
import { getAgent, nameInUse, registerAgent, setAgentStatus } from "./runningAgents.ts";
import { type AgentRuntime, agentRuntimeOf, MAX_AGENT_DEPTH } from "./runtime.ts";
import { finishWorktree, type WorktreeResult } from "./worktree.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

export interface AgentToolConfig {
  /** The project whose agent types the prompt lists. Default: process.cwd() when the prompt is built. */
  projectRoot?: string;
  env?: NodeJS.ProcessEnv;
}

const inputSchema = z.strictObject({
  description: z
    .string()
    .trim()
    .min(1)
    .describe("A short (3-5 word) description of the task, for the person"),
  prompt: z.string().min(1).describe("The task: everything the agent needs to know and what to report back"),
  subagent_type: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe(
      `The agent type (default "${DEFAULT_AGENT_TYPE}"); "${FORK_TYPE}" continues this conversation in a copy of you`,
    ),
  model: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe("Model name or alias (sonnet, opus, haiku) for this agent"),
  run_in_background: z.boolean().optional().describe("Return a task id at once and let the agent work on"),
  isolation: z
    .enum(["worktree", "remote"])
    .optional()
    .describe(
      '"worktree": work in a fresh git worktree on a new branch; "remote": run on a `keel worker` machine from the job queue (always in the background), its work pushed as a branch',
    ),
  name: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "letters, digits, _ and - only")
    .optional()
    .describe(
      "A name to address this agent with SendMessage, while it runs and after it finished (it resumes)",
    ),
  team_name: z
    .string()
    .optional()
    .describe("Deprecated and ignored: every agent of a session belongs to one implicit team"),
  mode: z
    .string()
    .optional()
    .describe(
      "Deprecated and ignored: an agent runs under the session's permission mode (or its type's, when stricter)",
    ),
});

export interface AgentToolOutput {
  status: "completed" | "failed" | "stopped" | "async_launched";
  agentId: string;
  agentType: string;
  model: string;
  description: string;
  name?: string;
  /** The agent's final text (foreground), or why there is none. */
  report?: string;
  usage?: AgentUsageSummary;
  usageLine?: string;
  /** Foreground: what became of the worktree. Background: where the agent works (settled when it ends). */
  worktree?: WorktreeResult | { path: string; branch: string };
  /** Background: the task TaskOutput and TaskStop take, and its output file. */
  taskId?: string;
  outputPath?: string;
  /** `isolation: "remote"`: the queue it waits on and what it starts from. */
  remote?: {
    queue: string;
    displayUrl: string;
    repository: { url: string; commit: string; branch: string; uncommitted: number };
  };
}

export interface AgentProgress {
  agentId: string;
  text: string;
}

const MAX_TYPE_DESCRIPTION_CHARS = 400;

function listing(types: readonly AgentType[]): string {
  const lines = types.map((type) => {
    const description =
      type.description.length > MAX_TYPE_DESCRIPTION_CHARS
        ? `${type.description.slice(0, MAX_TYPE_DESCRIPTION_CHARS)}…`
        : type.description;
    const tools = type.tools === "*" ? "all your tools" : type.tools.join(", ");
    return `- ${type.name}: ${description} (tools: ${tools}${type.permissionMode === "plan" ? "; read-only" : ""})`;
  });
  return `Available agent types:\n${lines.join("\n")}`;
}

function remoteLaunchText(output: AgentToolOutput, remote: NonNullable<AgentToolOutput["remote"]>): string {
  const { repository } = remote;
  return [
    `Queued ${output.agentId} (${output.agentType}, ${output.model}) on the remote-agent queue "${remote.queue}" at ${remote.displayUrl}: "${output.description}".`,
    `A \`keel worker\` takes it and works on commit ${repository.commit.slice(0, 12)} of ${repository.url}; its commits are pushed there as branch ${repository.branch}.`,
    ...(repository.uncommitted > 0
      ? [
          `Your ${repository.uncommitted} uncommitted change${repository.uncommitted === 1 ? " is" : "s are"} not in that commit, so the remote agent does not see ${repository.uncommitted === 1 ? "it" : "them"}.`,
        ]
      : []),
    `You will be told when it finishes, with its report. Meanwhile: TaskOutput with task_id "${output.taskId}" reads its progress (block: true waits for the report), TaskStop stops it, SendMessage to "${output.name ?? output.agentId}" gives it more instructions.`,
  ].join("\n");
}

function resultText(output: AgentToolOutput): string {
  if (output.status === "async_launched" && output.remote) return remoteLaunchText(output, output.remote);
  if (output.status === "async_launched")
    return [
      `Started ${output.agentId} (${output.agentType}) in the background: "${output.description}".`,
      `You will be told when it finishes, with its report. Meanwhile: TaskOutput with task_id "${output.taskId}" reads its progress (block: true waits for the report), TaskStop stops it, SendMessage to "${output.name ?? output.agentId}" gives it more instructions.`,
      ...(output.worktree
        ? [`It works in the worktree ${output.worktree.path} on branch ${output.worktree.branch}.`]
        : []),
    ].join("\n");
  const tail = [output.usageLine ?? output.agentId];
  if (output.worktree && "kept" in output.worktree) tail.push(worktreeLine(output.worktree));
  return `${output.report ?? ""}\n\n---\n${tail.join("\n")}`;
}

function refuse(errorCode: ToolErrorCode, message: string): ValidationResult {
  return { result: false, errorCode, message };
}

export function createAgentTool(
  config: AgentToolConfig = {},
): Tool<AgentToolInput, AgentToolOutput, AgentProgress> {
  const env = () => config.env ?? process.env;
  const typesFor = async (context: ToolUseContext) =>
    (await loadAgentTypes(agentTypeRoots(context.getAppState().toolPermissionContext.projectRoot, env())))
      .types;

  return buildTool<AgentToolInput, AgentToolOutput, AgentProgress>({
    ...agentToolMeta,
    searchHint: "start a sub-agent for a task (foreground, background, fork, worktree)",
    inputSchema,
    maxResultSizeChars: 50_000,
    requiresAgentLoop: true,
    ruleMatcher: agentRuleMatcher,
    async prompt() {
      const { types } = await loadAgentTypes(agentTypeRoots(config.projectRoot ?? process.cwd(), env()));
      return `${PROMPT}\n\n${listing(types)}`;
    },
    description: (input) => input.description,
    isConcurrencySafe: true,
    // Starting an agent changes nothing by itself (its calls are checked one by one); a worktree is a new
    // branch, and a remote agent pushes the commit and sends the task to another machine.
    isReadOnly: (input) => input.isolation === undefined,
    interruptBehavior: () => "cancel",
    async checkPermissions(input, context) {
      if (input.isolation !== "remote")
        return allowedByTool("a sub-agent's own tool calls are each checked by the same rules")(input);
      const queue = remoteQueueOf(context);
      return {
        behavior: "passthrough",
        message: `Start a remote agent: the task and this repository's HEAD commit go to ${queue?.ok ? `the queue "${queue.config.name}" at ${queue.config.displayUrl}` : "the remote-agent queue"}, and a worker machine runs it`,
      };
    },
    toAutoClassifierInput: (input) => `${input.subagent_type ?? DEFAULT_AGENT_TYPE}: ${input.prompt}`,

    async validateInput(input, context) {
      const runtime = agentRuntimeOf(context);
      if (!runtime)
        return refuse(
          "no_agent_loop",
          "Sub-agents run inside Keel's agent loop (keel run, keel, or an Agent built with the library); this call came from elsewhere. Do the task with your own tools.",
        );
      if (runtime.depth >= MAX_AGENT_DEPTH)
        return refuse(
          "not_allowed",
          `Sub-agents nest at most ${MAX_AGENT_DEPTH} levels deep, and this agent is at depth ${runtime.depth}: it cannot start another. Do this task yourself with your own tools.`,
        );
      const types = await typesFor(context);
      const typeName = input.subagent_type ?? DEFAULT_AGENT_TYPE;
      const type = findAgentType(types, typeName);
      if (!type)
        return refuse(
          "not_found",
          `No agent type "${typeName}". Available types: ${types.map((t) => t.name).join(", ")}.`,
        );
      const sessionId = context.options.sessionId;
      if (type.name === FORK_TYPE) {
        if (context.agentId && getAgent(sessionId, context.agentId)?.fork)
          return refuse(
            "not_allowed",
            "You are a fork already, and a fork cannot fork again. Do the task yourself, or start an agent of another type.",
          );
        if (input.model && input.model !== runtime.model)
          return refuse(
            "invalid_input",
            `A fork keeps your model (${runtime.model}) so its requests reuse your prompt cache. Leave out model, or use another subagent_type.`,
          );
      }
      if (input.isolation === "remote") {
        if (type.name === FORK_TYPE)
          return refuse(
            "invalid_input",
            'A fork continues this conversation, which stays on this machine: it cannot run remotely. Use another subagent_type with isolation "remote".',
          );
        const queue = remoteQueueOf(context);
        if (!queue?.ok)
          return refuse(
            "not_allowed",
            queue?.problem ??
              "Remote agents are not available here (a remote agent cannot start remote agents). Run the agent without isolation.",
          );
      }
      if (input.name && nameInUse(sessionId, input.name))
        return refuse(
          "wrong_state",
          `An agent named "${input.name}" is still running. Choose another name, or send it a message with SendMessage.`,
        );
      return { result: true };
    },

    async call(input, context, _canUseTool, parentMessage, onProgress) {
      const runtime = agentRuntimeOf(context);
      if (!runtime) throw new ToolError("no_agent_loop", "Sub-agents run inside Keel's agent loop.");
      if (input.isolation === "remote")
        return { data: await startRemote(input, context, runtime, await typesFor(context), env()) };
      const launched = await launchAgent({
        input,
        context,
        runtime,
        types: await typesFor(context),
        parentMessage,
        env: env(),
      });
      const sessionId = context.options.sessionId;
      const now = Date.now();
      const recordDir = subagentsDir(context);
      registerAgent(sessionId, {
        id: launched.agentId,
        ...(input.name ? { name: input.name } : {}),
        agentType: launched.type.name,
        description: input.description,
        ...(context.agentId ? { parentId: context.agentId } : {}),
        fork: launched.fork,
        background: input.run_in_background === true,
        status: "running",
        ...(input.isolation ? { isolation: input.isolation } : {}),
        startedAt: now,
        lastActivityAt: now,
        model: launched.loop.model,
        cwd: launched.cwd,
        ...(launched.worktree
          ? { worktree: { path: launched.worktree.path, branch: launched.worktree.branch } }
          : {}),
        ...(recordDir ? { recordDir } : {}),
        launched,
        send: (message) => launched.loop.send(message),
      });
      const base = {
        agentId: launched.agentId,
        agentType: launched.type.name,
        model: launched.loop.model,
        description: input.description,
        ...(input.name ? { name: input.name } : {}),
      };
      if (input.run_in_background) {
        const task = await startInBackground(launched, {
          context,
          runtime,
          description: input.description,
        }).catch(async (error: unknown) => {
          setAgentStatus(sessionId, launched.agentId, "failed");
          if (launched.worktree) await finishWorktree(launched.worktree).catch(() => undefined);
          throw error;
        });
        const worktree = launched.worktree
          ? { path: launched.worktree.path, branch: launched.worktree.branch }
          : undefined;
        return { data: { ...base, status: "async_launched", ...task, ...(worktree ? { worktree } : {}) } };
      }
      const signal = context.abortController.signal;
      const onAbort = () => stopAgent(launched, "The Agent call was interrupted");
      signal.addEventListener("abort", onAbort, { once: true });
      try {
        const result = await runToEnd(launched, sessionId, (event) => {
          const text = progressLine(event);
          if (text)
            onProgress({ toolUseId: parentMessage?.id ?? "", data: { agentId: launched.agentId, text } });
        });
        return {
          data: {
            ...base,
            status: result.status,
            report: reportText(result),
            usage: result.usage,
            usageLine: usageLine(launched, launched.loop.model, result.usage),
            ...(result.worktree ? { worktree: result.worktree } : {}),
          },
        };
      } finally {
        signal.removeEventListener("abort", onAbort);
      }
    },

    mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
      return { type: "tool_result", tool_use_id: toolUseId, content: resultText(output) };
    },
    userFacingName: (input) => (input?.subagent_type ? `Agent(${input.subagent_type})` : agentToolMeta.name),
    renderToolUse: (input) => ({
      kind: "text",
      text: `Agent(${input.subagent_type ?? DEFAULT_AGENT_TYPE}${input.run_in_background || input.isolation === "remote" ? ", background" : ""}${input.isolation ? `, ${input.isolation}` : ""}): ${input.description}`,
    }),
    renderToolResult: (output) => ({ kind: "text", text: resultText(output) }),
    renderToolProgress: (progress) => ({ kind: "progress", text: `${progress.agentId}: ${progress.text}` }),
  });
}

/** The queue `isolation: "remote"` uses in this session (set by the agent session, remote/config.ts). */
function remoteQueueOf(context: ToolUseContext): RemoteQueueResolution | undefined {
  const value = context.options.remoteAgents;
  return value !== null && typeof value === "object" && "ok" in value
    ? (value as RemoteQueueResolution)
    : undefined;
}

/** A remote agent runs in the background on a worker; bullmq and ioredis load only when one starts. */
async function startRemote(
  input: AgentToolInput,
  context: ToolUseContext,
  runtime: AgentRuntime,
  types: readonly AgentType[],
  env: NodeJS.ProcessEnv,
): Promise<AgentToolOutput> {
  const queue = remoteQueueOf(context);
  if (!queue?.ok)
    throw new ToolError("not_allowed", queue?.problem ?? "Remote agents are not available here.");
  const typeName = input.subagent_type ?? DEFAULT_AGENT_TYPE;
  const type = findAgentType(types, typeName);
  if (!type) throw new ToolError("not_found", `No agent type "${typeName}".`);
  const { launchRemoteAgent } = await import("../../remote/parent/launch.ts");
  const launched = await launchRemoteAgent({
    agentId: newAgentId(),
    input,
    context,
    runtime,
    type,
    config: queue.config,
    env,
  });
  return {
    status: "async_launched",
    agentId: launched.agentId,
    agentType: type.name,
    model: launched.model,
    description: input.description,
    ...(input.name ? { name: input.name } : {}),
    taskId: launched.taskId,
    outputPath: launched.outputPath,
    remote: {
      queue: launched.worker.queue,
      displayUrl: launched.worker.displayUrl,
      repository: launched.repository,
    },
  };
}

export const AgentTool = createAgentTool();
