// One run of a remote agent job on a worker: check out the commit, merge the job's policy with this
// machine's managed settings, run Keel's agent loop (the one `keel run` uses) with the governed tools
// under that policy, stream its progress and decisions, then push its branch and clean up.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { Agent } from "../../agent/Agent.ts";
import { ModelClassifier } from "../../agent/classifier.ts";
import { agentSettingsFrom, type ModelConfig, resolveModelConfig } from "../../agent/config.ts";
import { ProviderError } from "../../agent/errors.ts";
import type { AgentEvent, RunOutcome } from "../../agent/events.ts";
import { createProvider } from "../../agent/providers/index.ts";
import { subagentSystemPrompt } from "../../agent/subagentRuntime.ts";
import { JsonlAuditSink } from "../../audit/jsonlSink.ts";
import { HookRunner } from "../../hooks/runner.ts";
import type { AuditRecord, AuditSink, PipelineServices } from "../../pipeline/services.ts";
import type { LoadedSettings } from "../../settings/load.ts";
import { userHomeDir } from "../../settings/locations.ts";
import { createToolUseContext } from "../../tool/createContext.ts";
import { errorMessage } from "../../tool/errors.ts";
import { assembleToolPool } from "../../tool/registry.ts";
import { releaseSession } from "../../tool/sessionEnd.ts";
import type { AgentType } from "../../tools/agent/agentTypes.ts";
import { progressLine, usageLine } from "../../tools/agent/run.ts";
import { agentRuntimeOf } from "../../tools/agent/runtime.ts";
import { toolsForAgent } from "../../tools/agent/toolsForAgent.ts";
import { loadAllBuiltinTools } from "../../tools/catalog.ts";
import type { RemoteResult } from "../channel.ts";
import type { RemoteJob } from "../job.ts";
import { mergeRemotePolicy, remotePermissionContext, workerManagedPolicy } from "../policy.ts";
import type { JobCheckout, RepoCache } from "./checkout.ts";
import { type JobChannel, ParentPrompter } from "./jobChannel.ts";

export interface RunJobArgs {
  job: RemoteJob;
  runKey: string;
  worker: string;
  repos: RepoCache;
  channel: JobChannel;
  /** The worker machine's settings (managed and its user's), loaded in the worker's folder. */
  settings: LoadedSettings;
  env: NodeJS.ProcessEnv;
  questionTimeoutMs: number;
  /** Aborted when the parent stops the job or the worker shuts down. */
  signal: AbortSignal;
  /** Hooks the agent's controls up once it exists: messages from the parent, and stopping it. */
  attach(controls: { send(text: string): void; stop(reason: string): void }): void;
}

/** A job that cannot run here (setup, checkout, model): the run fails with this, before the agent starts. */
export class JobSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JobSetupError";
  }
}

/** The worker's model setup, with the job's model name; the job's provider only when nothing here names one. */
function modelConfigFor(job: RemoteJob, settings: LoadedSettings, env: NodeJS.ProcessEnv): ModelConfig {
  const own = agentSettingsFrom(settings.sources as Array<{ settings: Record<string, unknown> }>);
  try {
    return resolveModelConfig({ model: job.model.name }, env, own);
  } catch (first) {
    if (!(first instanceof ProviderError)) throw first;
    try {
      return resolveModelConfig({ model: job.model.name, provider: job.model.provider }, env, own);
    } catch {
      throw new JobSetupError(`this worker has no model provider for ${job.model.name}: ${first.message}`);
    }
  }
}

function remoteNotice(job: RemoteJob, worker: string, checkout: JobCheckout): string {
  return `You run on the remote worker "${worker}", in a fresh checkout of ${job.repository.url} at commit ${checkout.baseCommit.slice(0, 12)}, on the branch ${checkout.branch}, in ${checkout.worktree}. The person and the session that started you are on another machine: your final message is your report to them. Commit your work on ${checkout.branch}; when you finish, the branch is pushed to the repository (anything left uncommitted is committed for you).`;
}

/** The worker's own audit log, and a copy of each record for the parent's. */
function auditBoth(own: AuditSink, channel: JobChannel, worker: string): AuditSink {
  return {
    record(entry: AuditRecord) {
      const tagged = { ...entry, worker };
      own.record(tagged);
      void channel.emit({ type: "decision", worker, record: tagged as unknown as Record<string, unknown> });
    },
  };
}

function statusOf(outcome: RunOutcome, stopped: boolean): RemoteResult["status"] {
  if (stopped) return "stopped";
  return outcome.reason === "completed" ? "completed" : "failed";
}

export async function runRemoteJob(args: RunJobArgs): Promise<RemoteResult> {
  const { job, worker, repos, channel, settings, env } = args;
  const home = userHomeDir(env);
  const config = modelConfigFor(job, settings, env);
  let checkout: JobCheckout;
  try {
    checkout = await repos.checkout(job, args.runKey, args.signal);
  } catch (error) {
    throw new JobSetupError(errorMessage(error));
  }
  const sessionId = randomUUID();
  try {
    const policy = mergeRemotePolicy(
      job.policy,
      workerManagedPolicy(settings.sources, { projectRoot: checkout.worktree, home }),
    );
    for (const note of policy.notes)
      void channel.emit({ type: "progress", text: `Policy on ${worker}: ${note}.` });
    const permissionContext = remotePermissionContext(policy, {
      projectRoot: checkout.worktree,
      home,
      sandbox: settings.permissionContext.sandbox,
    });
    const type: AgentType = {
      name: job.agentType.name,
      description: job.description,
      tools: job.agentType.tools,
      disallowedTools: job.agentType.disallowedTools,
      prompt: job.agentType.instructions,
      source: "built-in",
      ...(job.agentType.maxTurns ? { maxTurns: job.agentType.maxTurns } : {}),
    };
    // Depth 1, as a sub-agent; the Agent tool's remote isolation is off here (no queue in this context).
    const tools = toolsForAgent(
      assembleToolPool(await loadAllBuiltinTools(), [], permissionContext),
      type,
      1,
    );
    const context = createToolUseContext({
      tools,
      permissionContext,
      isNonInteractiveSession: true,
      model: config.model,
      sessionId,
      toolResultsDir: join(checkout.dir, "tool-results"),
      remoteAgents: {
        ok: false,
        configured: false,
        problem: "A remote agent cannot start remote agents. Start the agent without isolation.",
      },
    });
    const provider = await createProvider({
      provider: config.provider,
      apiKey: config.apiKey,
      ...(config.baseURL ? { baseURL: config.baseURL } : {}),
    });
    const managedHooks = settings.hooks.filter((hook) => hook.source === "policy");
    const services: PipelineServices = {
      audit: auditBoth(new JsonlAuditSink({ env }), channel, worker),
      ...(policy.askParent ? { prompter: new ParentPrompter(channel, args.questionTimeoutMs) } : {}),
      ...(managedHooks.length > 0
        ? {
            hooks: new HookRunner({
              hooks: managedHooks,
              projectDir: checkout.worktree,
              settingsEnv: settings.env,
              env,
            }),
          }
        : {}),
      ...(policy.mode === "auto"
        ? { classifier: new ModelClassifier({ provider, model: env.KEEL_CLASSIFIER_MODEL ?? config.model }) }
        : {}),
    };
    const agent = new Agent({
      provider,
      model: config.model,
      modelInfo: config.info,
      tools,
      context,
      services,
      system: subagentSystemPrompt({ instructions: type.prompt }, checkout.worktree, home),
      ...(type.maxTurns ? { maxTurns: type.maxTurns } : {}),
      subagent: { depth: 1, agentId: job.agentId },
    });
    let stopped = false;
    let stopReason = "";
    const stop = (reason: string) => {
      if (stopped) return;
      stopped = true;
      stopReason = reason;
      void channel.emit({ type: "progress", text: `Stopping: ${reason}` });
      agent.interrupt();
      agent.context.abortController.abort(new Error(reason));
    };
    const reasonOf = (signal: AbortSignal) => (signal.reason ? errorMessage(signal.reason) : "stopped");
    if (args.signal.aborted) stop(reasonOf(args.signal));
    args.signal.addEventListener("abort", () => stop(reasonOf(args.signal)), { once: true });
    args.attach({
      send: (text) =>
        agentRuntimeOf(agent.context)?.send(`Message from the parent session (SendMessage):\n${text}`),
      stop,
    });
    const started = performance.now();
    let toolCalls = 0;
    let outcome: RunOutcome;
    try {
      if (stopped) throw new Error("stopped before it started");
      outcome = await drain(
        agent.submit(`${job.prompt}\n\n${remoteNotice(job, worker, checkout)}`),
        (event) => {
          if (event.type === "tool_result") toolCalls++;
          const line = progressLine(event);
          if (line) void channel.emit({ type: "progress", text: line });
        },
      );
    } catch (error) {
      outcome = {
        reason: "error",
        turns: 0,
        text: "",
        usage: { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
        costUsd: undefined,
        detail: errorMessage(error),
      };
    }
    const finished = await repos.finish(checkout, job, worker);
    // Work that could not be pushed is gone with the worktree: the run did not deliver its result.
    const status = finished.pushError ? "failed" : statusOf(outcome, stopped);
    const usage = usageLine({ agentId: job.agentId, type }, config.model, {
      turns: outcome.turns,
      toolCalls,
      inputTokens: outcome.usage.inputTokens + outcome.usage.cacheCreationInputTokens,
      outputTokens: outcome.usage.outputTokens,
      cacheReadInputTokens: outcome.usage.cacheReadInputTokens,
      ...(outcome.costUsd !== undefined ? { costUsd: outcome.costUsd } : {}),
      durationMs: Math.round(performance.now() - started),
    });
    const detail =
      status === "completed"
        ? undefined
        : finished.pushError
          ? `its branch could not be pushed: ${finished.pushError}`
          : status === "stopped"
            ? `it was stopped: ${stopReason}`
            : (outcome.detail ?? outcome.reason);
    return channel.redact({
      status,
      worker,
      report:
        status === "completed"
          ? outcome.text.trim()
          : `The agent did not finish (${detail}).${outcome.text.trim() ? ` Its last message:\n${outcome.text.trim()}` : ""}`,
      ...(detail ? { detail } : {}),
      ...(finished.branch ? { branch: finished.branch } : {}),
      commits: finished.commits,
      ...(finished.pushError ? { pushError: finished.pushError } : {}),
      usageLine: `${usage} · on worker ${worker}`,
      notes: [
        ...policy.notes.map((note) => `on ${worker}, ${note}`),
        ...(finished.committedForAgent > 0
          ? [`${finished.committedForAgent} uncommitted change(s) were committed by the worker`]
          : []),
      ],
    });
  } finally {
    await releaseSession(sessionId).catch(() => {});
    await repos.remove(checkout).catch(() => {});
  }
}

async function drain(
  run: AsyncGenerator<AgentEvent, RunOutcome, undefined>,
  onEvent: (event: AgentEvent) => void,
): Promise<RunOutcome> {
  for (;;) {
    const next = await run.next();
    if (next.done) return next.value;
    onEvent(next.value);
  }
}
