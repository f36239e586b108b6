// Notification hooks from the terminal UI: real hook commands saving their stdin, the UI's own
// prompter, and the notifier between them. (The permission dialog's notice is checked in the real
// program under tmux: interactive.test.ts.)
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { HookEvent } from "../../hooks/config.ts";
import { HookRunner } from "../../hooks/runner.ts";
import { hooksFromRunner } from "../loopHooks.ts";
import { AttentionNotifier } from "./attentionNotifier.ts";
import { UiPrompter } from "./uiPrompter.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "keel-attention-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let count = 0;

function setup(idleMs: number) {
  const saved = join(root, `notices-${++count}.jsonl`);
  const runner = new HookRunner({
    hooks: [
      {
        event: "Notification" as HookEvent,
        matcher: "",
        handler: { type: "command", command: `cat >> '${saved}'; echo >> '${saved}'` },
        source: "project",
      },
    ],
    projectDir: root,
  });
  const session = {
    sessionId: "s-1",
    cwd: root,
    permissionMode: "default" as const,
    transcriptPath: "/t.jsonl",
  };
  const prompter = new UiPrompter({ persist: () => false });
  const notifier = new AttentionNotifier(
    hooksFromRunner(runner, () => session),
    prompter,
    { idleMs },
  );
  /** The notices saved so far, once `count` of them are complete. */
  async function notices(wanted: number): Promise<Array<Record<string, string>>> {
    for (let i = 0; i < 500; i++) {
      const lines = existsSync(saved)
        ? readFileSync(saved, "utf8")
            .split("\n")
            .filter((line) => line.endsWith("}"))
        : [];
      if (lines.length >= wanted) return lines.map((line) => JSON.parse(line) as Record<string, string>);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`fewer than ${wanted} notices were saved`);
  }
  return { prompter, notifier, notices };
}

describe("Notification hooks from the terminal UI", () => {
  it("an MCP server's form on screen: elicitation_dialog, with the common fields", async () => {
    const { prompter, notifier, notices } = setup(60_000);
    const signal = new AbortController().signal;
    const form = prompter.elicit({
      serverName: "tickets",
      message: "Which project?",
      requestedSchema: { type: "object", properties: { project: { type: "string" } } },
      signal,
    });
    prompter.answerField("KEEL");
    expect(await form).toEqual({ action: "accept", content: { project: "KEEL" } });
    const [notice] = await notices(1);
    expect(notice).toEqual({
      session_id: "s-1",
      transcript_path: "/t.jsonl",
      cwd: root,
      hook_event_name: "Notification",
      message: "The MCP server tickets asks for input: Which project?",
      notification_type: "elicitation_dialog",
      title: "Input needed",
    });
    notifier.stop();
  });

  it("the prompt line waiting after an answer: idle_prompt", async () => {
    const { notifier, notices } = setup(50);
    notifier.promptDone();
    const [idle] = await notices(1);
    expect(idle).toMatchObject({
      hook_event_name: "Notification",
      notification_type: "idle_prompt",
      message: "Keel is waiting for your input",
    });
    expect(idle?.title).toBeUndefined();
    notifier.stop();
  });
});
