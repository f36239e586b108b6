// Starts the terminal UI on a session and resolves with the exit code when the person leaves. The
// prompt history is kept in ~/.keel/history.jsonl.
import { join } from "node:path";
import { render } from "ink";
import { createElement } from "react";
import { keelUserDir } from "../../settings/locations.ts";
import { releaseSession } from "../../tool/sessionEnd.ts";
import { onStopSignal, signalExitCode } from "../../tool/stopSignals.ts";
import type { AgentSession } from "../createAgent.ts";
import { App } from "./components.ts";
import { InteractiveController } from "./controller.ts";
import { PromptHistory } from "./prompt/history.ts";
import type { UiPrompter } from "./uiPrompter.ts";

export async function runInteractive(
  session: AgentSession,
  prompter: UiPrompter,
  options: { initialPrompt?: string } = {},
): Promise<number> {
  let controller: InteractiveController | undefined;
  const problems: string[] = [];
  const history = new PromptHistory({
    path: join(keelUserDir(), "history.jsonl"),
    project: session.agent.context.getAppState().toolPermissionContext.projectRoot,
    onError: (message) => (controller ? controller.notify("warning", message) : problems.push(message)),
  });
  controller = new InteractiveController(session, prompter, { history });
  for (const problem of problems) controller.notify("warning", problem);
  // The kitty keyboard protocol, where the terminal has it, tells Shift+Enter from Enter.
  const instance = render(createElement(App, { controller }), {
    exitOnCtrlC: false,
    kittyKeyboard: { mode: "auto" },
  });
  if (options.initialPrompt) void controller.submit(options.initialPrompt);
  // SIGTERM, SIGHUP (the terminal closed) or an outside SIGINT: stop what runs and leave, as /exit does.
  const unwatch = onStopSignal((signal) => {
    session.agent.interrupt();
    session.agent.context.abortController.abort(new Error(`Stopped by ${signal}`));
    controller?.exit(signalExitCode(signal));
  });
  const code = await controller.exited();
  unwatch();
  await session.hooks.sessionEnd("prompt_input_exit", new AbortController().signal).catch(() => undefined);
  await releaseSession(session.agent.sessionId);
  instance.unmount();
  await instance.waitUntilExit().catch(() => undefined);
  return code;
}
