// `keel hook <agent>`: Keel's decision as the pre-tool hook of another agent (one event on stdin, the
// agent's answer on stdout), and `keel hook install|uninstall|status` to wire it into the agent's
// settings. The event path loads only what deciding one call needs. It fails closed: broken settings
// refuse every call, and an event it cannot read exits with 2, which every agent reads as "block".
import type { Command } from "commander";
import { type EventRead, parseEvent, readEvent } from "../../guard/readEvent.ts";
import { AGENTS, type AgentName, isAgentName } from "../../guard/types.ts";
import { CliError } from "../exitCodes.ts";
import type { CommandIO } from "../io.ts";
import type { CliRuntime } from "../main.ts";
import type { ScopeFlags } from "./hookInstall.ts";

/** `keel hook` typed without an agent by a person: its help, and an error. */
const HOOK_UNUSABLE = 1;
/** Every agent reads exit code 2 of a hook as "block this call": what Keel cannot decide, it refuses. */
const HOOK_REFUSED = 2;

export function register(program: Command, runtime: CliRuntime): void {
  const hook = program
    .command("hook")
    .description(
      `Answer another agent's pre-tool hook with Keel's decision (${AGENTS.join(", ")}), or install the hook`,
    )
    .argument("[agent]", `the agent whose hook event is on stdin: ${AGENTS.join(", ")}`)
    .option(
      "--strict",
      "every ask of Keel becomes the agent's ask (by default only asks from a rule or a safety check do)",
    )
    // An agent runs this for every tool call: a stray flag is noted, not a reason to block the call.
    .allowUnknownOption()
    .allowExcessArguments()
    .addHelpText(
      "after",
      [
        "",
        "Allow when Keel proves the call safe; deny with Keel's reason (a deny rule, plan mode, dontAsk);",
        "ask when a rule or a safety check asks (the agent asks its person; Gemini CLI and Codex's",
        "PreToolUse cannot ask, so there it is a refusal that says why); otherwise no opinion, and the",
        "agent's own rules and prompts decide. Fails closed: a broken Keel settings file refuses every call",
        "with file:line:col, and an event Keel cannot read exits 2 (block). Nothing is run. Every decision",
        "goes to Keel's audit log.",
        "",
        "  keel hook install claude-code          add the hook to ~/.claude/settings.json",
        "  keel hook status                       where it is installed, whether it starts here (and Codex runs it)",
        "  keel hook uninstall claude-code        remove exactly Keel's entries",
        "  keel audit --summary                   allowed / denied / left to you, per tool",
        "",
        "Fast: after the first event, Keel's decision server answers (a Node start and a socket round trip;",
        "see keel daemon --help). KEEL_DECISION_SERVER=off decides each event in its own process.",
      ].join("\n"),
    )
    .action(async (agent: string | undefined, options: { strict?: boolean }, command: Command) => {
      if (agent === undefined) {
        hook.outputHelp();
        runtime.setExitCode(HOOK_UNUSABLE);
        return;
      }
      if (!isAgentName(agent)) {
        // Run by an agent whose hook names no agent Keel knows: Keel cannot decide, so it blocks.
        runtime.io.err(
          `keel hook: unknown agent "${agent}" (use one of: ${AGENTS.join(", ")}); the call is refused\n`,
        );
        runtime.setExitCode(HOOK_REFUSED);
        return;
      }
      if (runtime.io.stdin === undefined && runtime.io.tty.stdin) {
        runtime.io.err(
          `keel hook ${agent} answers one hook event given on stdin by the agent; to set it up, run \`keel hook install ${agent}\`\n`,
        );
        runtime.setExitCode(HOOK_UNUSABLE);
        return;
      }
      const ignored = command.args.slice(1);
      runtime.setExitCode(await answerEvent(agent, options.strict === true, ignored, runtime.io));
    });

  withScopes(
    hook
      .command("install")
      .description("Add Keel's hook to the agent's settings (idempotent; keeps other hooks)"),
  )
    .argument("<agent>", AGENTS.join(", "))
    .option("--strict", "install the hook with --strict")
    .option(
      "--command <command>",
      "the command the agent runs (default: this Node and this keel by absolute path; with --project, the keel on each machine's PATH)",
    )
    .action(async (agent: string, _options: ScopeFlags, command: Command) => {
      const { install } = await import("./hookInstall.ts");
      install(checkedAgent(agent), command.optsWithGlobals<ScopeFlags>());
    });

  withScopes(
    hook.command("uninstall").description("Remove exactly Keel's hook entries from the agent's settings"),
  )
    .argument("<agent>", AGENTS.join(", "))
    .action(async (agent: string, _options: ScopeFlags, command: Command) => {
      const { uninstall } = await import("./hookInstall.ts");
      uninstall(checkedAgent(agent), command.optsWithGlobals<ScopeFlags>());
    });

  hook
    .command("status")
    .description("Where Keel's hook is installed, for every agent and scope")
    .option("--cwd <dir>", "the project (default: current directory)")
    .option("--json", "print JSON")
    .action(async (options: { cwd?: string; json?: boolean }) => {
      const { status } = await import("./hookInstall.ts");
      status(options);
    });
}

function withScopes(command: Command): Command {
  return command
    .option("--user", "the user's settings (default)")
    .option("--project", "the project's shared settings")
    .option("--local", "the project's local settings (Claude Code: .claude/settings.local.json)")
    .option("--cwd <dir>", "the project (default: current directory)");
}

function checkedAgent(agent: string): AgentName {
  if (isAgentName(agent)) return agent;
  throw new CliError(`unknown agent "${agent}"; use one of: ${AGENTS.join(", ")}`);
}

/** `keel hook <agent>` with nothing else on the line: what the action below does for it. */
export function answerHookEvent(agent: AgentName, io: CommandIO): Promise<number> {
  return answerEvent(agent, false, [], io);
}

/** Answers the event on stdin; resolves to the exit code (2 only when the event cannot be read as a call). */
async function answerEvent(
  agent: AgentName,
  strict: boolean,
  ignored: string[],
  io: CommandIO,
): Promise<number> {
  // The event is read while the deciding modules load (or was read already: see decisionServer/).
  const reading = eventFrom(io);
  (await import("../quickStart.ts")).preferQuickStart();
  const { handleHookEvent } = await import("../../guard/handle.ts");
  const reply = await handleHookEvent(agent, await reading, {
    strict,
    env: io.env,
    ...(io.holdRecords ? { holdRecords: io.holdRecords } : {}),
  });
  if (reply.stdout !== "") io.out(`${reply.stdout}\n`);
  const notes = [
    ...(ignored.length > 0 ? [`keel hook ${agent}: ignored arguments ${ignored.join(" ")}`] : []),
    ...(reply.note ? [reply.note] : []),
  ];
  for (const note of notes) io.err(`${note}\n`);
  return reply.exitCode;
}

function eventFrom(io: CommandIO): Promise<EventRead> {
  const given = io.stdin;
  if (given === undefined) return readEvent(process.stdin);
  return Promise.resolve("text" in given ? parseEvent(given.text) : { ok: false, problem: given.problem });
}
