// SessionStart and SessionEnd as Claude Code fires them beyond startup: after a compaction (source
// "compact") and on /clear (SessionEnd "clear", then SessionStart "clear"), with the hooks' context
// reaching the model on the next prompt. Real hook commands, scripted model server.
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ConfiguredHook } from "../hooks/config.ts";
import { HookRunner, sessionFromContext } from "../hooks/runner.ts";
import type { ToolUseContext } from "../tool/context.ts";
import { conversationText } from "../tools/agent/testing.ts";
import { hooksFromRunner } from "./loopHooks.ts";
import { collectRun, scriptedAgent } from "./testing/harness.ts";
import { text } from "./testing/script.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "keel-session-sources-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("SessionStart after a compaction and on /clear", () => {
  it("fires with source compact / clear (SessionEnd with reason clear first), and their context reaches the model", async () => {
    const log = join(root, "events.log");
    writeFileSync(log, "");
    // Logs every SessionStart/End; a SessionStart gives the source back as context for the model.
    const script = join(root, "hook.sh");
    writeFileSync(
      script,
      `input=$(cat)\nevent=$(printf '%s' "$input" | sed -n 's/.*"hook_event_name":"\\([A-Za-z]*\\)".*/\\1/p')\nwhy=$(printf '%s' "$input" | sed -n 's/.*"\\(source\\|reason\\)":"\\([a-z_]*\\)".*/\\2/p')\necho "$event $why" >> '${log}'\nif [ "$event" = SessionStart ]; then printf '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"REMEMBER after %s"}}' "$why"; fi\n`,
    );
    const hooks: ConfiguredHook[] = ["SessionStart", "SessionEnd"].map((event) => ({
      event: event as ConfiguredHook["event"],
      matcher: "",
      handler: { type: "command", command: `sh '${script}'` },
      source: "project",
    }));
    const runner = new HookRunner({ hooks, projectDir: root });
    let context: ToolUseContext | undefined;
    const run = await scriptedAgent({
      protocol: "anthropic",
      // The second request is the compaction's summary.
      script: (_request, index) =>
        index === 1 ? { blocks: [text("SUMMARY: we said hello.")] } : { blocks: [text("ok")] },
      session: { cwd: root },
      agent: { hooks: hooksFromRunner(runner, () => sessionFromContext(context as ToolUseContext)) },
    });
    context = run.agent.context;
    try {
      await run.run("hello");
      await collectRun(run.agent.compact({ trigger: "manual" }));
      await run.run("after the summary");
      expect(conversationText(run.server.requests.at(-1)!)).toContain("REMEMBER after compact");
      await run.agent.clearConversation();
      await run.run("fresh start");
      const fresh = conversationText(run.server.requests.at(-1)!);
      expect(fresh).toContain("REMEMBER after clear");
      expect(fresh).not.toContain("hello");
      expect(readFileSync(log, "utf8")).toBe("SessionStart compact\nSessionEnd clear\nSessionStart clear\n");
    } finally {
      await run.close();
    }
  });
});
