// One hook event in, one reply out: read the event as the agent's call, decide it, write the agent's
// answer. Bad input (not JSON, unknown event, missing fields) is no opinion plus a one-line note, so a
// broken hook never blocks the person's work and never allows by accident.
import type { AgentAdapter } from "./adapter.ts";
import { claudeCodeAdapter } from "./claudeCode.ts";
import { codexAdapter } from "./codex.ts";
import { EventProblem } from "./eventFields.ts";
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
  options: HookOptions = {},
): Promise<HandledEvent> {
  const adapter = ADAPTERS[agent];
  const silent = (problem: string): HandledEvent => ({
    stdout: adapter.silence,
    note: `keel hook ${agent}: ${oneLine(problem)}; no opinion`,
  });
  const read = typeof input === "string" ? parseEvent(input) : input;
  if (!read.ok) return silent(read.problem);
  let parsed: ReturnType<AgentAdapter["toCall"]>;
  try {
    parsed = adapter.toCall(read.event, options.env ?? process.env);
  } catch (error) {
    if (error instanceof EventProblem) return silent(error.message);
    return silent(`unexpected error reading the event: ${(error as Error)?.message ?? String(error)}`);
  }
  // The deciding modules (settings, rules, zod schemas) load while the Bash grammar compiles.
  warmUpFor(parsed.call.calls.map((part) => part.tool));
  const { decideAgentCall } = await import("./decide.ts");
  const { verdict, note } = await decideAgentCall(parsed.call, options);
  let stdout: string;
  try {
    stdout = adapter.reply(parsed.call, verdict, { strict: options.strict === true });
  } catch (error) {
    return silent(`unexpected error writing the answer: ${(error as Error)?.message ?? String(error)}`);
  }
  const notes = [parsed.note, note].filter((text): text is string => Boolean(text));
  return {
    stdout,
    verdict,
    ...(notes.length > 0 ? { note: `keel hook ${agent}: ${oneLine(notes.join("; "))}` } : {}),
  };
}
