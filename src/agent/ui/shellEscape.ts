// `!command` at the prompt, as in Claude Code's bash mode: the command runs as a Bash call through the
// session's pipeline (the same rules, analyzer, hooks, approvals and audit as the model's calls; it asks
// when a model's call would ask), its output is shown, and the model gets both with the next prompt.
import type { NestedToolResult } from "../../tool/context.ts";
import type { Agent } from "../Agent.ts";

/** The model sees at most this much of the output (the person sees what the tool returned). */
const CONTEXT_CHARS = 30_000;

export async function runShellEscape(
  agent: Agent,
  command: string,
  signal: AbortSignal,
): Promise<NestedToolResult> {
  const runTool = agent.context.options.runNestedTool;
  if (!runTool) return { text: "Shell commands need Keel's agent loop.", isError: true, refused: true };
  // Its own abort signal: Ctrl-C stops this command, not the session.
  const controller = new AbortController();
  const stop = () => controller.abort(signal.reason);
  signal.addEventListener("abort", stop, { once: true });
  try {
    const result = await runTool(
      { name: "Bash", input: { command, description: `Run by the user: ${command.slice(0, 60)}` } },
      // Typed by the person: an approval of it offers a plain "No" (no model to tell).
      {
        ...agent.context,
        abortController: controller,
        options: { ...agent.context.options, typedByPerson: true },
      },
    );
    if (!result.refused) agent.addContext([contextFor(command, result)]);
    return result;
  } finally {
    signal.removeEventListener("abort", stop);
  }
}

function contextFor(command: string, result: NestedToolResult): string {
  const output = result.text.length > CONTEXT_CHARS ? `${result.text.slice(0, CONTEXT_CHARS)}…` : result.text;
  return `The user ran this command in the shell themselves (not a request to you); take it into account:\n<bash-input>${command}</bash-input>\n<bash-output${result.isError ? ' failed="true"' : ""}>${output}</bash-output>`;
}
