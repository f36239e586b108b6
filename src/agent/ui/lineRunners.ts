// What a sent line does besides a plain prompt, for the terminal UI: `!command` (a Bash call through the
// pipeline), a prompt with `@mentions` (the files attached first) and a custom `/command` (expanded, then
// sent with its allowed-tools). The controller owns the screen; these get only what they need of it.
import type { AgentSession } from "../createAgent.ts";
import { type ExpandedCommand, expandSlashLine } from "../customCommands.ts";
import { errorMessageForUser } from "../format.ts";
import { modelInfo } from "../models.ts";
import { attachMentions } from "./fileMentions.ts";
import { runShellEscape } from "./shellEscape.ts";
import type { NewItem } from "./transcriptView.ts";

export interface LineHost {
  session: AgentSession;
  home: string;
  push(item: NewItem): void;
  /** The prompt line is busy (true) or free again (false): notes held for after the run are printed then. */
  setRunning(running: boolean): void;
  submit(prompt: string, shown?: string, options?: { shownAlready?: boolean }): Promise<void>;
}

function showError(host: LineHost, error: unknown): void {
  host.push({ kind: "notice", level: "error", text: errorMessageForUser(error) });
}

/** A typed prompt: its `@mentions` attached (read through the pipeline), then sent as typed. */
export async function sendWithMentions(host: LineHost, line: string): Promise<void> {
  if (!/(^|\s)@\S/.test(line)) return host.submit(line);
  host.push({ kind: "user", text: line });
  host.setRunning(true);
  let attached: Awaited<ReturnType<typeof attachMentions>>;
  try {
    attached = await attachMentions(line, host.session.agent.context, host.home);
  } catch (error) {
    showError(host, error);
    return;
  } finally {
    host.setRunning(false);
  }
  for (const note of attached.notes) host.push({ kind: "notice", level: "info", text: note });
  await host.submit(attached.prompt, line, { shownAlready: true });
}

/** `!command`: run through the pipeline like any Bash call, shown, and given to the model with the next prompt. */
export async function runShellLine(host: LineHost, command: string, signal: AbortSignal): Promise<void> {
  host.push({ kind: "user", text: `! ${command}` });
  host.setRunning(true);
  try {
    const result = await runShellEscape(host.session.agent, command, signal);
    host.push({
      kind: "tool",
      entry: {
        id: `shell-${Date.now()}`,
        name: "Bash",
        title: `Bash(${command})`,
        status: result.isError || result.refused ? "error" : "done",
        result: { kind: "text", text: result.text || "(no output)" },
      },
    });
  } catch (error) {
    showError(host, error);
  } finally {
    host.setRunning(false);
  }
}

/** A project or user command: expanded (its `!` lines may ask, like any Bash call), then sent with its allowed-tools. */
export async function runCustomCommand(host: LineHost, name: string, args: string): Promise<void> {
  const line = `/${name}${args.trim() ? ` ${args.trim()}` : ""}`;
  const agent = host.session.agent;
  host.setRunning(true);
  let expanded: ExpandedCommand | undefined;
  try {
    expanded = await expandSlashLine(agent, line);
  } catch (error) {
    showError(host, error);
    return;
  } finally {
    host.setRunning(false);
  }
  if (!expanded) {
    host.push({ kind: "notice", level: "warning", text: `Unknown command /${name}. Try /help.` });
    return;
  }
  const before = { model: agent.model, info: agent.modelInfo };
  if (expanded.model) agent.setModel(expanded.model, modelInfo(expanded.model));
  agent.allowUntilPromptEnds(expanded.allowRules);
  try {
    await host.submit(expanded.prompt, line);
  } finally {
    if (expanded.model) agent.setModel(before.model, before.info);
  }
}
