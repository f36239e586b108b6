// The sub-agents of each session, by id, so SendMessage can reach one by id or name (or all at once) and
// ListAgents can list them. Finished agents stay listed with their status; SendMessage resumes them.
// A registered agent with a record folder is saved there at start and end (agentRecords.ts), so it can
// be resumed after the session is (`keel -c`).
import { onSessionEnd } from "../../tool/sessionEnd.ts";
import {
  type AgentRecord,
  loadAgentRecords,
  pruneAgentRecords,
  saveAgentRecord,
  snapshotReads,
} from "./agentRecords.ts";
import type { LaunchedAgent } from "./launch.ts";

export type AgentStatus = "running" | "completed" | "failed" | "stopped";

export interface RegisteredAgent {
  id: string;
  name?: string;
  agentType: string;
  description: string;
  /** The agent that started it; undefined for the main loop. */
  parentId?: string;
  fork: boolean;
  background: boolean;
  status: AgentStatus;
  /** Where it runs: undefined (this checkout), "worktree", or another kind a launcher names. */
  isolation?: string;
  startedAt: number;
  lastActivityAt: number;
  model?: string;
  cwd?: string;
  worktree?: { path: string; branch: string };
  /** The session's sub-agent folder: where its record and transcript are kept. */
  recordDir?: string;
  /** Its loop, kept in memory after it finished for a quick resume (the latest few agents only). */
  launched?: LaunchedAgent;
  /** Queues a message for the agent's next model request. */
  send(message: string): void;
}

/** Finished agents whose loops stay in memory; older ones resume from their transcript. */
const MAX_FINISHED_IN_MEMORY = 10;

const sessions = new Map<string, Map<string, RegisteredAgent>>();
onSessionEnd((sessionId) => forgetAgents(sessionId), "forget");

export function registerAgent(sessionId: string, agent: RegisteredAgent): void {
  let agents = sessions.get(sessionId);
  if (!agents) {
    agents = new Map();
    sessions.set(sessionId, agents);
  }
  agents.set(agent.id, agent);
  if (agent.recordDir && agent.status === "running") {
    persistAgent(agent);
    pruneAgentRecords(agent.recordDir);
  }
}

export function setAgentStatus(sessionId: string, agentId: string, status: AgentStatus): void {
  const agent = sessions.get(sessionId)?.get(agentId);
  if (!agent) return;
  agent.status = status;
  agent.lastActivityAt = Date.now();
  if (agent.recordDir) persistAgent(agent);
  if (status !== "running") dropOldLoops(sessionId);
}

/** The agent did something (a model answer, a tool result): ListAgents shows when it last did. */
export function touchAgent(sessionId: string, agentId: string): void {
  const agent = sessions.get(sessionId)?.get(agentId);
  if (agent) agent.lastActivityAt = Date.now();
}

function dropOldLoops(sessionId: string): void {
  const finished = listAgents(sessionId).filter((agent) => agent.status !== "running" && agent.launched);
  for (const agent of finished.slice(0, Math.max(0, finished.length - MAX_FINISHED_IN_MEMORY)))
    delete agent.launched;
}

/** Saves the agent's record; a record that cannot be written only costs resuming after `keel -c`. */
export function persistAgent(agent: RegisteredAgent): void {
  if (!agent.recordDir) return;
  const record: AgentRecord = {
    version: 1,
    id: agent.id,
    ...(agent.name ? { name: agent.name } : {}),
    agentType: agent.agentType,
    description: agent.description,
    ...(agent.isolation ? { isolation: agent.isolation } : {}),
    fork: agent.fork,
    background: agent.background,
    status: agent.status,
    startedAt: agent.startedAt,
    lastActivityAt: agent.lastActivityAt,
    model: agent.model ?? "",
    cwd: agent.cwd ?? "",
    ...(agent.worktree ? { worktree: agent.worktree } : {}),
    ...(agent.parentId ? { parentId: agent.parentId } : {}),
    reads: agent.launched ? snapshotReads(agent.launched.context.readFileState) : [],
  };
  try {
    saveAgentRecord(agent.recordDir, record);
  } catch {
    // The folder went away or is full: the agent runs on; only a later resume from disk is lost.
  }
}

export function getAgent(sessionId: string, agentId: string): RegisteredAgent | undefined {
  return sessions.get(sessionId)?.get(agentId);
}

export function listAgents(sessionId: string): RegisteredAgent[] {
  return [...(sessions.get(sessionId)?.values() ?? [])];
}

/** An agent by id, else the most recent agent of that name. */
export function findAgent(sessionId: string, idOrName: string): RegisteredAgent | undefined {
  const agents = listAgents(sessionId);
  return agents.find((agent) => agent.id === idOrName) ?? agents.findLast((agent) => agent.name === idOrName);
}

/** The name is taken while an agent of that name is running. */
export function nameInUse(sessionId: string, name: string): boolean {
  return listAgents(sessionId).some((agent) => agent.name === name && agent.status === "running");
}

/**
 * A continued session (`keel -c`) gets its agents back from their records, ready to be resumed; one that
 * was running when its process ended is "stopped".
 */
export function restoreAgents(sessionId: string, recordDir: string): RegisteredAgent[] {
  const restored: RegisteredAgent[] = [];
  for (const record of loadAgentRecords(recordDir)) {
    if (getAgent(sessionId, record.id)) continue;
    const agent: RegisteredAgent = {
      id: record.id,
      ...(record.name ? { name: record.name } : {}),
      agentType: record.agentType,
      description: record.description,
      ...(record.parentId ? { parentId: record.parentId } : {}),
      fork: record.fork,
      background: record.background,
      status: record.status === "running" ? "stopped" : record.status,
      ...(record.isolation ? { isolation: record.isolation } : {}),
      startedAt: record.startedAt,
      lastActivityAt: record.lastActivityAt,
      ...(record.model ? { model: record.model } : {}),
      ...(record.cwd ? { cwd: record.cwd } : {}),
      ...(record.worktree ? { worktree: record.worktree } : {}),
      recordDir,
      send: () => {},
    };
    registerAgent(sessionId, agent);
    restored.push(agent);
  }
  return restored;
}

/** A background agent of the session is still running (its report is still to come). */
export function hasRunningBackgroundAgents(sessionId: string): boolean {
  return listAgents(sessionId).some((agent) => agent.background && agent.status === "running");
}

/** Forgets a session's agents (at session end). */
export function forgetAgents(sessionId: string): void {
  sessions.delete(sessionId);
}
