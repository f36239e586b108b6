// The terminal UI runs input that arrives while the agent is idle (another session's message, a
// background agent's report, a fired scheduled prompt) in a turn of its own, and shows where it came from.
import { expect, it } from "vitest";
import type { AgentSession } from "../createAgent.ts";
import { NO_HOOKS } from "../loopHooks.ts";
import { scriptedAgent } from "../testing/harness.ts";
import { text } from "../testing/script.ts";
import { InteractiveController } from "./controller.ts";
import { UiPrompter } from "./uiPrompter.ts";

const wait = async (condition: () => boolean) => {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
};

it("an idle terminal answers a message and a fired prompt without the person typing", async () => {
  const run = await scriptedAgent({
    protocol: "anthropic",
    script: [{ blocks: [text("read your message")] }, { blocks: [text("ran the scheduled check")] }],
  });
  try {
    const session = { agent: run.agent, hooks: NO_HOOKS, notices: [] } as unknown as AgentSession;
    const controller = new InteractiveController(session, new UiPrompter({ persist: () => false }), {
      idleNoticeMs: 60_000,
    });
    run.agent.queueMessage("Message from another Keel session of this user: hello");
    await wait(() =>
      controller.state.history.some((item) => item.kind === "assistant" && item.text === "read your message"),
    );
    expect(JSON.stringify(run.server.requests[0]?.body.messages)).toContain("hello");
    await wait(() => !controller.state.running);
    run.agent.queuePrompt("CHECK the build", 'Scheduled prompt fired: cron_1 ("*/5 * * * *")');
    await wait(() =>
      controller.state.history.some(
        (item) => item.kind === "assistant" && item.text === "ran the scheduled check",
      ),
    );
    const notices = controller.state.history
      .filter((item) => item.kind === "notice")
      .map((item) => item.text);
    expect(notices).toEqual([
      "A message arrived (another session, or a background agent's report).",
      'Scheduled prompt fired: cron_1 ("*/5 * * * *")',
    ]);
    controller.exit(0);
  } finally {
    await run.close();
  }
});
