// One hook event in, one reply out: read the event as the agent's call, decide it, write the agent's
// answer. An event Keel cannot read as a call (not JSON, missing fields) is refused with exit code 2,
// which every agent reads as "block this call"; an event of a kind Keel does not answer is no opinion.
import type { AgentAdapter } from "./adapter.ts";
import { claudeCodeAdapter } from "./claudeCode.ts";
import { codexAdapter } from "./codex.ts";
import { EventProblem, UnansweredEvent } from "./eventFields.ts";
import { geminiCliAdapter } from "./geminiCli.ts";
import { warmUpFor } from "./keelTools.ts";
import { type EventRead, parseEvent } from "./readEvent.ts";
import type { AgentName, HookOptions, HookReply, Verdict } from "./types.ts";

// The adapters are small: all three load; the deciding modules load only once an event is read.
const ADAPTERS: Record<AgentName, AgentAdapter> = {
  "claude-code": claudeCodeAdapter,
  "gemini-cli": geminiCliAdapter,
  codex: codexAdapter,
};

export interface HandledEvent extends HookReply {
  /** Keel's verdict, when the event could be read. */
  verdict?: Verdict;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

/** Answers one event given as text (or already read from stdin). Never throws. */
export async function handleHookEvent(
  agent: AgentName,
  input: string | EventRead,
  options: HookOptions,
): Promise<HandledEvent> {
  const adapter = ADAPTERS[agent];
  const silent = (problem: string): HandledEvent => ({
    stdout: adapter.silence,
    note: `keel hook ${agent}: ${oneLine(problem)}; no opinion`,
    exitCode: 0,
  });
  const refused = async (problem: string): Promise<HandledEvent> => {
    const reason = `Keel cannot read this hook event (${oneLine(problem)}), so it refuses the call`;
    const { recordUnreadableEvent } = await import("./decide.ts");
    const note = await recordUnreadableEvent(agent, reason, options);
    return {
      stdout: "",
      note: `keel hook ${agent}: ${[reason, note].filter(Boolean).join("; ")}`,
      exitCode: 2,
    };
  };
  const read = typeof input === "string" ? parseEvent(input) : input;
  if (!read.ok) return refused(read.problem);
  let parsed: ReturnType<AgentAdapter["toCall"]>;
  try {
    parsed = adapter.toCall(read.event, options.env);
  } catch (error) {
    if (error instanceof UnansweredEvent) return silent(error.message);
    if (error instanceof EventProblem) return refused(error.message);
    return refused(`unexpected error reading the event: ${(error as Error)?.message ?? String(error)}`);
  }
  // The deciding modules (settings, rules, zod schemas) load while the Bash grammar compiles.
  warmUpFor(parsed.call.calls.map((part) => part.tool));
  const { decideAgentCall } = await import("./decide.ts");
  const { verdict, note } = await decideAgentCall(parsed.call, options);
  let stdout: string;
  try {
    stdout = adapter.reply(parsed.call, verdict, { strict: options.strict === true });
  } catch (error) {
    return refused(`unexpected error writing the answer: ${(error as Error)?.message ?? String(error)}`);
  }
  const notes = [parsed.note, note].filter((text): text is string => Boolean(text));
  return {
    stdout,
    exitCode: 0,
    verdict,
    ...(notes.length > 0 ? { note: `keel hook ${agent}: ${oneLine(notes.join("; "))}` } : {}),
  };
}
