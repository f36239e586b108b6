// What an agent session runs beside its loop: the scheduler of its prompts (CronCreate, ScheduleWakeup,
// the project's durable jobs), its socket for other sessions' messages, and its sub-agents brought back
// by `keel -c`. All of it ends with the session (releaseSession).

import type { PeerKind } from "../sessions/peerDirectory.ts";
import { PeerListener } from "../sessions/peerListener.ts";
import type { ToolUseContext } from "../tool/context.ts";
import { onSessionEnd } from "../tool/sessionEnd.ts";
import { subagentsDirOf } from "../tools/agent/agentRecords.ts";
import { hasRunningBackgroundAgents, restoreAgents } from "../tools/agent/runningAgents.ts";
import { type Clock, systemClock } from "../tools/schedule-shared/clock.ts";
import { durableStore } from "../tools/schedule-shared/durableJobs.ts";
import { Scheduler } from "../tools/schedule-shared/scheduler.ts";
import type { Agent } from "./Agent.ts";

const closers = new Map<string, Array<() => void>>();
onSessionEnd((sessionId) => {
  for (const close of closers.get(sessionId) ?? []) close();
  closers.delete(sessionId);
});

function onEnd(sessionId: string, close: () => void): void {
  closers.set(sessionId, [...(closers.get(sessionId) ?? []), close]);
}

export interface SessionServicesOptions {
  sessionId: string;
  projectRoot: string;
  env: NodeJS.ProcessEnv;
  /** The session's name for other sessions (`--name`). */
  name?: string;
  kind: PeerKind;
  clock?: Clock;
  /** The transcript folder, when the session continues a saved one: its sub-agents come back. */
  resumedFrom?: string;
}

export interface SessionServices {
  scheduler: Scheduler;
  listener?: PeerListener;
  /** The tool context with the scheduler and the session's name in its options. */
  context: ToolUseContext;
}

/** The scheduler and the session's name, on the context the agent will get. */
export function withSessionOptions(
  context: ToolUseContext,
  options: SessionServicesOptions,
  fire: (prompt: string, label: string) => void,
): { context: ToolUseContext; scheduler: Scheduler } {
  const scheduler = new Scheduler({
    clock: options.clock ?? systemClock,
    store: durableStore(options.projectRoot),
    fire: (fired) => fire(fired.prompt, fired.label),
  });
  onEnd(options.sessionId, () => scheduler.close());
  return {
    scheduler,
    context: {
      ...context,
      options: { ...context.options, scheduler, ...(options.name ? { sessionName: options.name } : {}) },
    },
  };
}

/** Starts what runs beside the agent once it exists; returns what print mode waits for. */
export async function startSessionServices(
  agent: Agent,
  scheduler: Scheduler,
  options: SessionServicesOptions,
): Promise<{ listener?: PeerListener; hasPendingWork: () => boolean; notices: string[] }> {
  const notices: string[] = [];
  if (options.resumedFrom) {
    const restored = restoreAgents(options.sessionId, subagentsDirOf(options.resumedFrom, options.sessionId));
    if (restored.length > 0)
      notices.push(
        `${restored.length} sub-agent${restored.length === 1 ? "" : "s"} of this session can be resumed with SendMessage: ${restored.map((agent) => agent.name ?? agent.id).join(", ")}.`,
      );
  }
  const listener = await PeerListener.open({
    env: options.env,
    sessionId: options.sessionId,
    ...(options.name ? { name: options.name } : {}),
    cwd: options.projectRoot,
    kind: options.kind,
    onMessage: (message) => {
      const sender = message.from.name
        ? `"${message.from.name}" (${message.from.sessionId})`
        : message.from.sessionId;
      agent.queueMessage(
        `Message from another Keel session of this user, ${sender}, pid ${message.from.pid}, in ${message.from.cwd} (SendMessage; not typed by the person here):\n${message.text}`,
      );
    },
  });
  if (listener) onEnd(options.sessionId, () => listener.close());
  try {
    await scheduler.start();
  } catch (error) {
    notices.push(`The project's scheduled jobs could not be loaded: ${(error as Error).message}`);
  }
  return {
    ...(listener ? { listener } : {}),
    hasPendingWork: () => hasRunningBackgroundAgents(options.sessionId) || scheduler.wakeup !== undefined,
    notices,
  };
}
