// How a prompt's run ends, for the endings the session tests do not reach: an answer cut off, a hook
// that stops the session, a budget the price of the model cannot enforce, messages that arrive late.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commandHookRunner } from "../hooks/testing.ts";
import { echoTool } from "../pipeline/testing/tools.ts";
import { tempFolderForTest } from "../tool/testing/tempFolder.ts";
import type { AgentEvent } from "./events.ts";
import { scriptedAgentForTest } from "./testing/harness.ts";
import { text, toolUse } from "./testing/script.ts";

const warnings = (events: AgentEvent[]) =>
  events.flatMap((event) => (event.type === "notice" && event.level === "warning" ? [event.text] : []));

describe("how a run ends", () => {
  it("an answer cut off at max_tokens ends the run as max_tokens, with what was said", async () => {
    const { run, server } = await scriptedAgentForTest({
      protocol: "anthropic",
      script: [{ blocks: [text("the first half")], stopReason: "max_tokens" }],
    });
    const { outcome } = await run("write a lot");
    expect(outcome).toMatchObject({
      reason: "max_tokens",
      detail: "the model ran out of output tokens",
      text: "the first half",
      turns: 1,
    });
    expect(server.requests).toHaveLength(1);
  });

  it("a PostToolUse hook with continue: false ends the run as hook_stopped, with its reason", async () => {
    const dir = tempFolderForTest("keel-endings-");
    const hook = join(dir, "post.sh");
    writeFileSync(hook, `#!/bin/bash\necho '{"continue": false, "stopReason": "enough echoes"}'\n`);
    chmodSync(hook, 0o755);
    const runner = commandHookRunner(dir, "PostToolUse", "Echo", hook);
    const { run, server } = await scriptedAgentForTest({
      protocol: "anthropic",
      tools: [echoTool()],
      session: { allow: ["Echo"] },
      services: { hooks: runner },
      script: [{ blocks: [toolUse("Echo", { text: "a" })] }, { blocks: [text("never asked")] }],
    });
    const { outcome } = await run("echo");
    expect(outcome).toMatchObject({ reason: "hook_stopped", detail: "enough echoes", turns: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it("a budget with a model of unknown price is warned about once and does not stop the run", async () => {
    const { agent, run } = await scriptedAgentForTest({
      protocol: "anthropic",
      script: (_request, index) => ({
        blocks: [text(`answer ${index}`)],
        usage: { input_tokens: 1_000_000 },
      }),
      agent: { maxBudgetUsd: 0.01 },
    });
    expect(agent.modelInfo.pricing).toBeUndefined();
    const first = await run("one");
    expect(first.outcome.reason).toBe("completed");
    expect(first.outcome.costUsd).toBeUndefined();
    expect(warnings(first.events)).toEqual([
      "The price of model test-model is unknown, so --max-budget-usd cannot be enforced.",
    ]);
    const second = await run("two");
    expect(second.outcome.reason).toBe("completed");
    expect(warnings(second.events)).toEqual([]);
  });
});
