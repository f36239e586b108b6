// Starts the terminal UI on a session and resolves with the exit code when the person leaves.
import { render } from "ink";
import { createElement } from "react";
import { releaseSession } from "../../tools/shared/releaseSession.ts";
import type { AgentSession } from "../createAgent.ts";
import { App } from "./components.ts";
import { InteractiveController } from "./controller.ts";
import type { UiPrompter } from "./uiPrompter.ts";

export async function runInteractive(
  session: AgentSession,
  prompter: UiPrompter,
  options: { initialPrompt?: string } = {},
): Promise<number> {
  const controller = new InteractiveController(session, prompter);
  const instance = render(createElement(App, { controller }), { exitOnCtrlC: false });
  if (options.initialPrompt) void controller.submit(options.initialPrompt);
  const code = await controller.exited();
  await session.hooks.sessionEnd("prompt_input_exit", new AbortController().signal).catch(() => undefined);
  await releaseSession(session.agent.sessionId);
  instance.unmount();
  await instance.waitUntilExit().catch(() => undefined);
  return code;
}
