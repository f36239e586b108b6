// Starts the terminal UI on a session and resolves with the exit code when the person leaves, or with the
// saved session /resume chose (the caller then opens that one). The prompt history is kept in
// ~/.keel/history.jsonl.
import { join } from "node:path";
import { render } from "ink";
import { createElement } from "react";
import { keelUserDir, userHomeDir } from "../../settings/locations.ts";
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
  options: { initialPrompt?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number; resumeTo?: string }> {
  let controller: InteractiveController | undefined;
  const problems: string[] = [];
  const history = new PromptHistory({
    path: join(keelUserDir(process.env), "history.jsonl"),
    project: session.agent.context.getAppState().toolPermissionContext.projectRoot,
    onError: (message) => (controller ? controller.notify("warning", message) : problems.push(message)),
  });
  const env = options.env ?? process.env;
  controller = new InteractiveController(session, prompter, { history, env, home: userHomeDir(env) });
  for (const problem of problems) controller.notify("warning", problem);
  // The kitty keyboard protocol, where the terminal has it, tells Shift+Enter from Enter.
  let generation = 0;
  const app = () => createElement(App, { controller, key: generation });
  const instance = render(app(), { exitOnCtrlC: false, kittyKeyboard: { mode: "auto" } });
  const stopRedrawing = redrawWhenNarrower(() => {
    generation++;
    instance.rerender(app());
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
  const resumeTo = controller.resumeTo;
  await session.hooks
    .sessionEnd(resumeTo ? "other" : "prompt_input_exit", new AbortController().signal)
    .catch(() => undefined);
  await releaseSession(session.agent.sessionId);
  stopRedrawing();
  instance.unmount();
  await instance.waitUntilExit().catch(() => undefined);
  return resumeTo ? { code, resumeTo } : { code };
}

/**
 * When the terminal gets narrower it rewraps what is on screen, and the frame drawn last then takes more
 * rows than Ink erases: the top of it (a box's border) would stay behind. So the screen and scrollback are
 * cleared and everything is drawn again at the new width (`redraw` remounts the app, which prints the
 * whole conversation again), as Claude Code does. Runs before Ink's own resize handling.
 */
function redrawWhenNarrower(redraw: () => void, stdout: NodeJS.WriteStream = process.stdout): () => void {
  let columns = stdout.columns;
  const onResize = () => {
    if (stdout.columns < columns) {
      stdout.write("\x1b[2J\x1b[3J\x1b[H");
      redraw();
    }
    columns = stdout.columns;
  };
  stdout.prependListener("resize", onResize);
  return () => stdout.off("resize", onResize);
}
