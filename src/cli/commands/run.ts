// `keel run "task"`: the agent in print mode, for scripts and CI. The answer streams to stdout (text),
// or comes as one JSON object (json) or one JSON line per event (stream-json); the exit code says
// how it ended. The agent's modules load when the command runs, not when `keel` starts.
import { constants as osConstants } from "node:os";
import { type Command, InvalidArgumentError } from "commander";
import type { AgentFlags, AgentSession } from "../../agent/createAgent.ts";
import type { RunOutcome } from "../../agent/events.ts";
import type { Prompter } from "../../pipeline/services.ts";
import { CliError, EXIT } from "../exitCodes.ts";
import { readStdinText } from "../input.ts";
import type { CliRuntime } from "../main.ts";
import type { PolicyFlags } from "../session.ts";
import { withClaudeRuleOptions, withMcpOptions, withPolicyOptions } from "./policyOptions.ts";

export type OutputFormat = "text" | "json" | "stream-json";

export interface RunFlags extends PolicyFlags, AgentFlags {
  outputFormat?: OutputFormat;
  inputFormat?: "text" | "stream-json";
  includePartialMessages?: boolean;
  verbose?: boolean;
}

/** Stopped by the person (Ctrl-C), as shells report SIGINT. */
export const EXIT_INTERRUPTED = 130;

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0)
    throw new InvalidArgumentError("expected a positive whole number");
  return number;
}

function positiveNumber(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new InvalidArgumentError("expected a positive number");
  return number;
}

/** The model and session flags shared by `keel run` and the interactive `keel`. */
export function withAgentOptions(command: Command): Command {
  return withClaudeRuleOptions(withMcpOptions(withPolicyOptions(command)))
    .option("--model <model>", "model name (env KEEL_MODEL, settings `model`)")
    .option(
      "--provider <provider>",
      "anthropic, or openai for any OpenAI-compatible server (env KEEL_PROVIDER)",
    )
    .option("--base-url <url>", "API endpoint, e.g. http://localhost:11434/v1 for Ollama (env KEEL_BASE_URL)")
    .option("--max-turns <n>", "stop after this many model calls", positiveInteger)
    .option("--max-budget-usd <usd>", "stop once the session has spent this much", positiveNumber)
    .option("-r, --resume [id]", "continue a saved session (the latest, or the one with this id)")
    .option("-c, --continue", "continue the latest session of this project")
    .option(
      "--system-prompt <text>",
      "replace Keel's instructions and environment section (tools, deferred tools and memory files stay)",
    )
    .option("--append-system-prompt <text>", "text added at the end of the system prompt")
    .option("--thinking <tokens>", "extended thinking budget in tokens (Anthropic)", positiveInteger)
    .option(
      "--context-window <tokens>",
      "the model's context window, for compaction (unknown models)",
      positiveInteger,
    )
    .option("--classifier-model <model>", "model for the classifier (default: the main model)")
    .option(
      "--name <name>",
      "a name other Keel sessions of yours can send messages to (SendMessage; letters, digits, _ and -)",
      sessionName,
    );
}

function sessionName(value: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(value))
    throw new InvalidArgumentError("use 1-64 letters, digits, _ and -");
  return value;
}

export function exitCodeForOutcome(outcome: RunOutcome): number {
  switch (outcome.reason) {
    case "completed":
      return EXIT.ok;
    case "prompt_blocked":
      return EXIT.refused;
    case "interrupted":
      return EXIT_INTERRUPTED;
    case "error": {
      const code = outcome.error?.code;
      const setup =
        code === "auth" || code === "permission" || code === "model_not_found" || code === "config";
      return setup || code === "unreachable" ? EXIT.usage : EXIT.toolError;
    }
    default:
      return EXIT.toolError;
  }
}

/** `--allowedTools Read "fix it"` reads the task as a rule too (as Claude Code does): say so. */
function listFlagHint(flags: RunFlags): string {
  const used = [...(flags.allowedTools ?? []), ...(flags.disallowedTools ?? [])].map((entry) => entry.flag);
  if (used.length === 0) return "";
  return ` (${used[0]} takes every word after it as a rule: put the task before it, or end the list with --)`;
}

/** `-r "third"` takes "third" as the session id (the flag's value is optional): say so. */
function resumeValueHint(flags: RunFlags): string {
  if (typeof flags.resume !== "string") return "";
  return ` ("${flags.resume}" was taken as the session id of -r/--resume, whose id is optional: put the task before the flag, keel -p "${flags.resume}" -r, or give both, keel -p -r <session-id> "task")`;
}

async function readPrompt(words: readonly string[], flags: RunFlags): Promise<string> {
  const joined = words.join(" ").trim();
  if (joined !== "" && joined !== "-") return joined;
  if (joined === "" && process.stdin.isTTY)
    throw new CliError(
      `Give a task: keel run "fix the failing test" (or pipe it on stdin)${listFlagHint(flags)}${resumeValueHint(flags)}.`,
    );
  try {
    const text = (await readStdinText()).trim();
    if (text) return text;
  } catch (error) {
    throw new CliError(`Could not read the task from stdin: ${(error as Error).message}`);
  }
  throw new CliError(
    `The task is empty${resumeValueHint(flags)}. Give one: keel run "fix the failing test"${listFlagHint(flags)}.`,
  );
}

export function register(program: Command, runtime: CliRuntime): void {
  withAgentOptions(
    program
      .command("run")
      .description("Run the agent on a task and print the answer (for scripts and CI; `keel -p` is the same)")
      .argument("[task...]", "the task; `-` or nothing reads it from stdin"),
  )
    .option("-p, --print", "accepted for Claude Code's `claude -p` (keel run always prints)")
    .option("--output-format <format>", "text, json or stream-json", "text")
    .option(
      "--input-format <format>",
      "text (the task), or stream-json: one user message per stdin line, answered in turn (needs --output-format stream-json)",
      "text",
    )
    .option("--include-partial-messages", "stream-json: also emit text and tool-input deltas")
    .option("--verbose", "text: show tool calls and notices on stderr")
    .addHelpText(
      "after",
      "\nRefused tool calls are printed on stderr (text) or listed in the result's permission_denials (json).\n" +
        "Exit codes: 0 done; 1 stopped before done (model error, --max-turns, budget, hook); 2 setup problem\n" +
        "(bad flags or settings, no API key, bad key, unknown model, endpoint unreachable); 3 the prompt was\n" +
        "refused by a hook; 130 interrupted (Ctrl-C); 143 / 129 stopped by SIGTERM / SIGHUP.",
    )
    .action(async (words: string[], flags: RunFlags) => {
      const format = flags.outputFormat ?? "text";
      if (!["text", "json", "stream-json"].includes(format))
        throw new CliError(`Unknown --output-format "${format}". Use text, json or stream-json.`);
      const streamInput = checkInputFormat(flags, words);
      const typed = streamInput ? undefined : await readPrompt(words, flags);
      const session = await openAgentSession(flags, { interactive: false });
      try {
        const prompts = streamInput
          ? (await import("./streamInput.ts")).readStreamJsonPrompts(process.stdin, (prompt) =>
              customCommandPrompt(session, prompt),
            )
          : await customCommandPrompt(session, typed ?? "");
        const { runPrintMode } = await import("../../agent/printMode.ts");
        const result = await runPrintMode(session, prompts, {
          format,
          verbose: flags.verbose === true,
          partial: flags.includePartialMessages === true,
          stdout: process.stdout,
          stderr: process.stderr,
        });
        runtime.setExitCode(
          result.signal ? 128 + osConstants.signals[result.signal] : exitCodeForOutcome(result.outcome),
        );
      } finally {
        session.close?.();
        // Prompts read from stdin: a run stopped early must not wait for more input to end.
        if (streamInput) process.stdin.destroy();
      }
    });
}

/** True for `--input-format stream-json` (prompts come from stdin); checks it goes with the other flags. */
function checkInputFormat(flags: RunFlags, words: readonly string[]): boolean {
  const input = flags.inputFormat ?? "text";
  if (input === "text") return false;
  if (input !== "stream-json")
    throw new CliError(`Unknown --input-format "${input}". Use text or stream-json.`);
  if ((flags.outputFormat ?? "text") !== "stream-json")
    throw new CliError("--input-format stream-json needs --output-format stream-json.");
  if (words.join(" ").trim() !== "")
    throw new CliError("--input-format stream-json reads the prompts from stdin; do not also give a task.");
  return true;
}

/**
 * `/name args` naming a project or user command: its expansion (its `!` lines and @files run through the
 * session's permission checks first), with the command's model for this run and its allowed-tools until
 * the prompt is answered. Any other prompt as typed.
 */
async function customCommandPrompt(session: AgentSession, typed: string): Promise<string> {
  if (!typed.startsWith("/")) return typed;
  const { expandSlashLine } = await import("../../agent/customCommands.ts");
  try {
    const expanded = await expandSlashLine(session.agent, typed);
    if (!expanded) return typed;
    session.agent.allowUntilPromptEnds(expanded.allowRules);
    if (expanded.model) {
      const { modelInfo } = await import("../../agent/models.ts");
      session.agent.setModel(expanded.model, modelInfo(expanded.model));
    }
    return expanded.prompt;
  } catch (error) {
    const { ToolError } = await import("../../tool/errors.ts");
    if (error instanceof ToolError)
      throw new CliError(error.message, error.code === "permission_denied" ? EXIT.refused : EXIT.usage);
    throw error;
  }
}

/** Settings, tools and services as every command loads them, then the agent on top (shared with `keel`). */
export async function openAgentSession(
  flags: PolicyFlags & AgentFlags,
  options: { interactive: boolean; prompter?: Prompter; offerTrust?: boolean },
): Promise<AgentSession> {
  const { connectSessionMcp, offerTrust, openSession } = await import("../session.ts");
  const { createAgentSession, AgentSetupError } = await import("../../agent/createAgent.ts");
  // Asked once per start: a session opened by /resume does not ask again.
  if (options.offerTrust !== false) await offerTrust(flags);
  const opened = await openSession(flags, { warmBashParser: true, surface: "agent" });
  const session = await connectSessionMcp(opened, flags, { prompter: options.prompter });
  try {
    const agentSession = await createAgentSession({
      settings: session.settings,
      tools: session.tools,
      services: session.services,
      flags,
      interactive: options.interactive,
      ...(options.prompter ? { prompter: options.prompter } : {}),
      ...(session.context.options.mcpClients ? { mcpClients: session.context.options.mcpClients } : {}),
    });
    // How the provider was chosen, said once: on stderr for a script, among the notices on a terminal.
    const notice = agentSession.config.notice;
    if (notice && !options.interactive) process.stderr.write(`keel: ${notice}\n`);
    return {
      ...agentSession,
      ...(notice && options.interactive ? { notices: [notice, ...agentSession.notices] } : {}),
      close: session.close,
    };
  } catch (error) {
    session.close();
    if (error instanceof AgentSetupError) throw new CliError(error.message);
    throw error;
  }
}
