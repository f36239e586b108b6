// The vocabulary shared by the agent adapters: what a hook event asks Keel, and what Keel concludes.

import type { RecordHolder } from "../audit/heldSink.ts";
import type { PermissionMode } from "../permissions/types.ts";
import type { Env } from "../tool/context.ts";

/** The agents whose pre-tool hooks Keel answers. */
export const AGENTS = ["claude-code", "gemini-cli", "codex"] as const;
export type AgentName = (typeof AGENTS)[number];

export function isAgentName(value: string): value is AgentName {
  return (AGENTS as readonly string[]).includes(value);
}

/** One Keel tool call that stands for (part of) the agent's call. */
export interface KeelCall {
  tool: string;
  input: Record<string, unknown>;
  /** The folder relative paths and commands start from, when it is not the event's cwd. */
  cwd?: string;
}

/** An agent's tool call as Keel understands it. */
export interface AgentCall {
  agent: AgentName;
  /** The agent's hook event: PreToolUse, PermissionRequest, BeforeTool. */
  event: string;
  /** The tool as the agent names it (what the person sees and what the audit log lists). */
  agentTool: string;
  /** Its input as the agent sent it, for the audit log. */
  agentInput: unknown;
  /**
   * The Keel calls that stand for it; all must be allowed for an allow, any deny denies. Empty, with
   * `unjudged` set, when Keel has no opinion on this tool or cannot read its input.
   */
  calls: KeelCall[];
  unjudged?: string;
  /** With `unjudged`: the tool is one Keel judges, but its input cannot be read (an ask, never silence). */
  unreadable?: boolean;
  /** The project: where settings are read and the first working directory. */
  projectDir: string;
  /** The agent's current directory. */
  cwd: string;
  /** The agent's permission mode; absent: the settings' default mode. */
  mode?: PermissionMode;
  sessionId: string;
  toolUseId: string;
}

/**
 * Keel's conclusion; `none` = no opinion (a tool Keel does not judge, or no rule covers the call: the
 * agent's own rules decide).
 */
export interface Verdict {
  behavior: "allow" | "deny" | "ask" | "none";
  /**
   * An ask the agent must put to its person even where its own rules would allow: it comes from a rule,
   * a safety check or input Keel cannot read. Where the agent cannot ask, it is a refusal.
   */
  firm?: boolean;
  /** For the model (deny) or the person (ask): why. */
  reason: string;
  /** Who decided, as `keel check` says it. */
  decidedBy: string;
  decisionReason?: unknown;
}

/** What the hook process prints and exits with. */
export interface HookReply {
  /** Exact stdout: a JSON document, or "" for no opinion where the agent accepts silence. */
  stdout: string;
  /** One line for stderr (bad input, broken settings), or undefined. */
  note?: string;
  /**
   * 2 when Keel cannot read the event as a call: every agent reads exit 2 as "block this call", with
   * stderr as the reason. Otherwise 0.
   */
  exitCode: 0 | 2;
}

/** Options of `keel hook <agent>`. */
export interface HookOptions {
  /** Keel's ask becomes the agent's ask (or a refusal where the agent cannot ask). */
  strict?: boolean;
  /** The environment of the hook process the agent started (the caller's, as data). */
  env: Env;
  /** Where the audit log goes (default ~/.keel/audit). */
  auditDir?: string;
  /** Holds the decision's records (a decision server, until its client acknowledged the answer). */
  holdRecords?: RecordHolder;
}
