// The sub-agents of each session, by id, so SendMessage can reach one by id or name (or all at once).
// Finished agents stay listed with their status, so a message to one gets a clear answer.
import { onSessionEnd } from "../../tool/sessionEnd.ts";

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
  /** Queues a message for the agent's next model request. */
  send(message: string): void;
}

const sessions = new Map<string, Map<string, RegisteredAgent>>();
onSessionEnd((sessionId) => forgetAgents(sessionId), "forget");

export function registerAgent(sessionId: string, agent: RegisteredAgent): void {
  let agents = sessions.get(sessionId);
  if (!agents) {
    agents = new Map();
    sessions.set(sessionId, agents);
  }
  agents.set(agent.id, agent);
}

export function setAgentStatus(sessionId: string, agentId: string, status: AgentStatus): void {
  const agent = sessions.get(sessionId)?.get(agentId);
  if (agent) agent.status = status;
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

/** Forgets a session's agents (at session end). */
export function forgetAgents(sessionId: string): void {
  sessions.delete(sessionId);
}
