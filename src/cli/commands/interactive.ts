// `keel` with no subcommand: the interactive terminal UI (Ink). Ink, React and the SDKs load only when
// this action runs, so other commands start without them.
import type { Command } from "commander";
import type { UiPrompter } from "../../agent/ui/uiPrompter.ts";
import { CliError } from "../exitCodes.ts";
import type { CliRuntime } from "../main.ts";
import { openAgentSession, type RunFlags, withAgentOptions } from "./run.ts";

export function register(program: Command, runtime: CliRuntime): void {
  withAgentOptions(program)
    .argument("[prompt...]", "a first prompt to send")
    .action(async (words: string[], flags: RunFlags) => {
      if (!process.stdin.isTTY || !process.stdout.isTTY)
        throw new CliError(
          'The interactive terminal needs a terminal on stdin and stdout. For scripts use: keel run "task".',
        );
      const { UiPrompter } = await import("../../agent/ui/uiPrompter.ts");
      let trusted = false;
      const prompter: UiPrompter = new UiPrompter({ persist: () => trusted });
      const { runInteractive } = await import("../../agent/ui/runInteractive.ts");
      let prompt = words.join(" ").trim();
      let sessionFlags: RunFlags = flags;
      let offer = true;
      // /resume ends the session on screen and opens the chosen one in its place.
      for (;;) {
        const session = await openAgentSession(sessionFlags, {
          interactive: true,
          prompter,
          offerTrust: offer,
        });
        trusted = session.trusted;
        const outcome = await runInteractive(session, prompter, prompt ? { initialPrompt: prompt } : {});
        session.close?.();
        if (!outcome.resumeTo) {
          runtime.setExitCode(outcome.code);
          return;
        }
        const { continue: _continue, ...rest } = sessionFlags;
        sessionFlags = { ...rest, resume: outcome.resumeTo };
        prompt = "";
        offer = false;
      }
    });
}
