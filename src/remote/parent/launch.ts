// `Agent` with `isolation: "remote"`: the job goes on the queue and the agent runs on whichever
// `keel worker` takes it, always in the background. The spawn connects to the queue (bounded: an
// unreachable queue is an error here), puts the commit on the remote, enqueues the job, and registers
// the agent as a background task of this session, so TaskOutput, TaskStop and SendMessage reach it as
// they reach a local background agent.
import { hostname } from "node:os";
import { resolveModelAlias } from "../../agent/config.ts";
import { registerBackgroundTask } from "../../shell/run/background.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { ToolError } from "../../tool/errors.ts";
import type { AgentType } from "../../tools/agent/agentTypes.ts";
import type { AgentToolInput } from "../../tools/agent/launch.ts";
import { registerAgent, setAgentStatus } from "../../tools/agent/runningAgents.ts";
import type { AgentRuntime } from "../../tools/agent/runtime.ts";
import { type RemoteResult, streamKeys } from "../channel.ts";
import type { RemoteQueueConfig } from "../config.ts";
import { closeRedis, connectRedis, QueueUnreachableError } from "../connection.ts";
import { JOB_VERSION, type JobPolicy, type RemoteJob, remoteBranchName } from "../job.ts";
import { stricterMode } from "../policy.ts";
import { deleteBaseRef, type ParentRepository, prepareRepository } from "../repository.ts";
import { RemoteAgentMonitor, reportText } from "./monitor.ts";

/** Finished jobs stay in Redis this long (and at most this many), for `keel worker` logs and inspection. */
const KEEP_FINISHED = { age: 24 * 3600, count: 1_000 };
const MAX_NOTIFICATION_REPORT_CHARS = 10_000;

export interface RemoteLaunchArgs {
  agentId: string;
  input: AgentToolInput;
  context: ToolUseContext;
  runtime: AgentRuntime;
  type: AgentType;
  config: RemoteQueueConfig;
  env: NodeJS.ProcessEnv;
}

export interface RemoteLaunched {
  agentId: string;
  model: string;
  taskId: string;
  outputPath: string;
  worker: { queue: string; displayUrl: string };
  repository: { url: string; commit: string; branch: string; uncommitted: number };
}

/** The parent's rules and mode as the job carries them (the agent type's own mode made stricter). */
export function jobPolicyOf(context: ToolUseContext, type: AgentType, canAsk: boolean): JobPolicy {
  const policy = context.getAppState().toolPermissionContext;
  const copy = (rules: typeof policy.alwaysAllowRules) =>
    Object.fromEntries(Object.entries(rules).map(([source, list]) => [source, [...(list ?? [])]]));
  return {
    mode: stricterMode(policy.mode, type.permissionMode).mode,
    allow: copy(policy.alwaysAllowRules),
    deny: copy(policy.alwaysDenyRules),
    ask: copy(policy.alwaysAskRules),
    canAsk,
  };
}

/** The model the agent asks for (an alias resolved), else the parent's. */
function modelFor(input: AgentToolInput, type: AgentType, runtime: AgentRuntime): string {
  const name = (input.model ?? type.model)?.trim();
  return !name || name === "inherit" ? runtime.model : resolveModelAlias(name);
}

export async function launchRemoteAgent(args: RemoteLaunchArgs): Promise<RemoteLaunched> {
  const { input, context, runtime, type, config, env, agentId } = args;
  const host = runtime.remoteHost;
  const signal = context.abortController.signal;
  const sessionId = context.options.sessionId;
  let redis: Awaited<ReturnType<typeof connectRedis>>;
  try {
    redis = await connectRedis(config, { signal, clientName: `keel-parent-${agentId}` });
  } catch (error) {
    if (error instanceof QueueUnreachableError)
      throw new ToolError("remote_unreachable", `${error.message} No agent was started.`);
    throw error;
  }
  let repository: ParentRepository | undefined;
  const { Queue } = await import("bullmq");
  const queue = new Queue(config.name, { connection: redis });
  queue.on("error", () => {});
  const model = modelFor(input, type, runtime);
  try {
    repository = await prepareRepository({
      cwd: context.getAppState().cwd,
      remoteName: config.gitRemote,
      agentId,
      env,
      signal,
    });
    const job: RemoteJob = {
      version: JOB_VERSION,
      agentId,
      description: input.description,
      prompt: input.prompt,
      agentType: {
        name: type.name,
        instructions: type.prompt,
        tools: type.tools === "*" ? "*" : [...type.tools],
        disallowedTools: [...type.disallowedTools],
        ...(type.maxTurns ? { maxTurns: type.maxTurns } : {}),
      },
      model: {
        name: model,
        provider: host?.provider.name ?? "anthropic",
        ...(host?.provider.baseURL ? { baseURL: host.provider.baseURL } : {}),
      },
      repository: {
        url: repository.url,
        commit: repository.commit,
        ref: repository.ref,
        branch: remoteBranchName(agentId),
      },
      policy: jobPolicyOf(context, type, host?.prompter !== undefined),
      parent: { sessionId, host: hostname() },
      createdAt: new Date().toISOString(),
    };
    await queue.add("agent", job, {
      jobId: agentId,
      attempts: 1,
      removeOnComplete: KEEP_FINISHED,
      removeOnFail: KEEP_FINISHED,
    });
  } catch (error) {
    if (repository) await deleteBaseRef(repository, env);
    await queue.close().catch(() => {});
    closeRedis(redis);
    if (error instanceof ToolError) throw error;
    throw new ToolError(
      "remote_unreachable",
      `Could not put the job on the queue at ${config.displayUrl} (${config.from}): ${(error as Error).message}. No agent was started.`,
    );
  }
  const prepared = repository;
  const monitor = new RemoteAgentMonitor({
    jobId: agentId,
    queue,
    redis,
    keys: streamKeys(config.name, agentId),
    claimTimeoutMs: config.claimTimeoutMs,
    sessionId,
    description: input.description,
    ...(host?.prompter ? { prompter: host.prompter } : {}),
    ...(host?.audit ? { audit: host.audit } : {}),
    context,
    tools: runtime.tools,
    cleanup: async () =>
      (await deleteBaseRef(prepared, env))
        ? undefined
        : `the base ref ${prepared.ref} could not be deleted from ${prepared.remoteName}; delete it with git push ${prepared.remoteName} :${prepared.ref}`,
    onEnd: (result, stoppedHere) => {
      setAgentStatus(sessionId, agentId, result.status);
      // A stop this session asked for needs no news; one on the worker's side (shut down) does.
      if (!stoppedHere) runtime.send(notification(agentId, input.description, result));
    },
  });
  registerAgent(sessionId, {
    id: agentId,
    ...(input.name ? { name: input.name } : {}),
    agentType: type.name,
    description: input.description,
    ...(context.agentId ? { parentId: context.agentId } : {}),
    fork: false,
    background: true,
    status: "running",
    isolation: "remote",
    startedAt: Date.now(),
    lastActivityAt: Date.now(),
    model: input.model ?? context.options.model ?? "",
    send: (message) => void monitor.sendMessage(message).catch(() => {}),
  });
  const task = await registerBackgroundTask(
    sessionId,
    {
      kind: "agent",
      id: agentId,
      command: `${type.name} (remote, queue ${config.name}): ${input.description}`,
      description: input.description,
      cwd: prepared.root,
      outputDir: context.options.toolResultsDir,
    },
    (_id, outputPath) => {
      monitor.start(outputPath);
      return { stop: () => monitor.stop("Stopped with TaskStop"), done: monitor.done };
    },
  );
  return {
    agentId,
    model,
    taskId: task.id,
    outputPath: task.outputPath,
    worker: { queue: config.name, displayUrl: config.displayUrl },
    repository: {
      url: prepared.url,
      commit: prepared.commit,
      branch: remoteBranchName(agentId),
      uncommitted: prepared.uncommitted,
    },
  };
}

function notification(agentId: string, description: string, result: RemoteResult): string {
  const report = reportText(result);
  const clipped =
    report.length > MAX_NOTIFICATION_REPORT_CHARS
      ? `${report.slice(0, MAX_NOTIFICATION_REPORT_CHARS)}\n[report cut; the whole of it: TaskOutput task_id "${agentId}"]`
      : report;
  return `<task-notification>\nRemote agent ${agentId} ("${description}") ${result.status} on worker ${result.worker}.\n${clipped}\n</task-notification>`;
}
