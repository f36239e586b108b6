import { afterEach, describe, expect, it } from "vitest";
import { startServer } from "../../agent/testing/harness.ts";
import { text } from "../../agent/testing/script.ts";
import type { ScriptedServer } from "../../agent/testing/server.ts";
import { keelWorld, runKeel } from "../testing/keelProcess.ts";

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function run(model: string, format: string[]) {
  const server = await startServer("anthropic", [
    { blocks: [text("Done.")], usage: { input_tokens: 100, output_tokens: 4 } },
  ]);
  servers.push(server);
  const w = keelWorld();
  return runKeel(
    ["-p", "say done", "--provider", "anthropic", "--base-url", server.url, "--model", model, ...format],
    w,
  );
}

describe("keel -p: the cost of a run", () => {
  it("a priced model: 100 in + 4 out on Haiku 4.5 is 0.00012 dollars exactly", async () => {
    const result = await run("claude-haiku-4-5", ["--output-format", "json"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"total_cost_usd":0.00012,');
    const verbose = await run("claude-haiku-4-5", ["--verbose"]);
    expect(verbose.stderr).toMatch(/keel: 1 turns, 100 in, 4 out, cost \$0\.0001\n/);
  });

  it.each(["qwen2.5-coder:7b", "claude-sonnet-4-7"])(
    "a model without a published price (%s): null, and no cost in text",
    async (model) => {
      const result = await run(model, ["--output-format", "json"]);
      expect(JSON.parse(result.stdout)).toMatchObject({ total_cost_usd: null });
      const verbose = await run(model, ["--verbose"]);
      expect(verbose.stderr).toMatch(/keel: 1 turns, 100 in, 4 out\n/);
      expect(verbose.stderr).not.toMatch(/cost/);
    },
  );
});
