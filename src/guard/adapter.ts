// What each agent's adapter provides: its event read as a call, and a verdict written as its reply.
import type { Env } from "../tool/context.ts";
import type { AgentCall, AgentName, Verdict } from "./types.ts";

export interface AgentAdapter {
  readonly agent: AgentName;
  /** The hook events this agent sends that Keel answers. */
  readonly events: readonly string[];
  /** stdout for "no opinion" (silence, or the empty object where the agent wants JSON). */
  readonly silence: string;
  /**
   * The event as a call. Throws EventProblem for an event Keel cannot read; `note` says what else it
   * could not read (a permission mode it does not know, a tool input in a shape it does not know).
   */
  toCall(event: Record<string, unknown>, env: Env): { call: AgentCall; note?: string };
  /**
   * The agent's reply for Keel's verdict; `silence` when Keel leaves the call to the agent. A firm ask
   * (and, with `strict`, every ask) becomes the agent's own ask, or a refusal where it cannot ask.
   */
  reply(call: AgentCall, verdict: Verdict, options: { strict: boolean }): string;
}
