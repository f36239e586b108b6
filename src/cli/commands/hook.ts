// `keel hook <agent>`: Keel's decision as the pre-tool hook of another agent (one event on stdin, the
// agent's answer on stdout), and `keel hook install|uninstall|status` to wire it into the agent's
// settings. The event path loads only what deciding one call needs; it never exits with 2, which
// agents read as "block": bad input is no opinion, a one-line note and exit 0.
import type { Command } from "commander";
import { type EventRead, parseEvent, readEvent } from "../../agentHooks/readEvent.ts";
import { AGENTS, type AgentName, isAgentName } from "../../agentHooks/types.ts";
import { givenStdin } from "../decisionServer/givenStdin.ts";
import { CliError } from "../exitCodes.ts";
import type { CliRuntime } from "../main.ts";
import type { ScopeFlags } from "./hookInstall.ts";

/** Exit code for a hook that cannot work at all (unknown agent): an error every agent shows, never a block. */
const HOOK_UNUSABLE = 1;

export function register(program: Command, runtime: CliRuntime): void {
  const hook = program
    .command("hook")
    .description(
      `Answer another agent's pre-tool hook with Keel's decision (${AGENTS.join(", ")}), or install the hook`,
    )
    .argument("[agent]", `the agent whose hook event is on stdin: ${AGENTS.join(", ")}`)
    .option("--strict", "when Keel would ask, make the agent ask too (instead of leaving it to the agent)")
    // An agent runs this for every tool call: a stray flag must not turn into exit 2 ("block").
    .allowUnknownOption()
    .allowExcessArguments()
    .addHelpText(
      "after",
      [
        "",
        "Allow when Keel proves the call safe, deny with Keel's reason, and otherwise no opinion (the",
        "agent's own rules and prompts decide). Nothing is run. Every decision goes to Keel's audit log.",
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
        process.stderr.write(
          `keel hook: unknown agent "${agent}" (use one of: ${AGENTS.join(", ")}); no opinion\n`,
        );
        runtime.setExitCode(HOOK_UNUSABLE);
        return;
      }
      if (givenStdin() === undefined && process.stdin.isTTY) {
        process.stderr.write(
          `keel hook ${agent} answers one hook event given on stdin by the agent; to set it up, run \`keel hook install ${agent}\`\n`,
        );
        runtime.setExitCode(HOOK_UNUSABLE);
        return;
      }
      const ignored = command.args.slice(1);
      await answerEvent(agent, options.strict === true, ignored);
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

async function answerEvent(agent: AgentName, strict: boolean, ignored: string[]): Promise<void> {
  // The event is read while the deciding modules load (or was read already: see decisionServer/).
  const reading = eventFromStdin();
  (await import("../quickStart.ts")).preferQuickStart();
  const { handleHookEvent } = await import("../../agentHooks/handle.ts");
  const reply = await handleHookEvent(agent, await reading, { strict });
  if (reply.stdout !== "") process.stdout.write(`${reply.stdout}\n`);
  const notes = [
    ...(ignored.length > 0 ? [`keel hook ${agent}: ignored arguments ${ignored.join(" ")}`] : []),
    ...(reply.note ? [reply.note] : []),
  ];
  for (const note of notes) process.stderr.write(`${note}\n`);
}

function eventFromStdin(): Promise<EventRead> {
  const given = givenStdin();
  if (given === undefined) return readEvent(process.stdin);
  return Promise.resolve("text" in given ? parseEvent(given.text) : { ok: false, problem: given.problem });
}
