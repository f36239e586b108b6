// The library surface as a user sees it: one import, a governed call, a decision with who decided.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import {
  buildTool,
  builtinTools,
  callbackPrompter,
  createToolUseContext,
  type ResultEvent,
  runToolUse,
} from "./index.ts";
import { tempFolderForTest } from "./tool/testing/tempFolder.ts";

async function resultOf(events: AsyncGenerator<{ type: string }>): Promise<ResultEvent> {
  let result: ResultEvent | undefined;
  for await (const event of events) if (event.type === "result") result = event as ResultEvent;
  return result!;
}

describe("library entry", () => {
  it("runs a built-in tool through the pipeline", async () => {
    const dir = tempFolderForTest("keel-lib-");
    writeFileSync(join(dir, "a.txt"), "hello\n");
    const context = createToolUseContext({ tools: builtinTools(), cwd: dir });
    const result = await resultOf(
      runToolUse(
        { type: "tool_use", id: "1", name: "Read", input: { file_path: join(dir, "a.txt") } },
        context,
      ),
    );
    expect(result.isError).toBe(false);
    expect(String(result.block.content)).toContain("hello");
    expect(result.decision?.behavior).toBe("allow");
  });

  it("asks a library callback for a custom tool, and respects its refusal", async () => {
    const deploy = buildTool<{ env: string }>({
      name: "Deploy",
      inputSchema: z.object({ env: z.string() }),
      maxResultSizeChars: 1000,
      description: (input) => `deploy to ${input.env}`,
      prompt: () => "Deploys the app.",
      isDestructive: true,
      call: async (input) => ({ data: `deployed to ${input.env}` }),
    });
    const asked: unknown[] = [];
    const prompter = callbackPrompter(async (_tool, input) => {
      asked.push(input);
      return (input as { env: string }).env === "staging"
        ? { behavior: "allow" }
        : { behavior: "deny", message: "not prod" };
    });
    const context = createToolUseContext({ tools: [deploy] });
    const staging = await resultOf(
      runToolUse({ type: "tool_use", id: "s", name: "Deploy", input: { env: "staging" } }, context, {
        prompter,
      }),
    );
    expect(staging.block.content).toBe("deployed to staging");
    const prod = await resultOf(
      runToolUse({ type: "tool_use", id: "p", name: "Deploy", input: { env: "prod" } }, context, {
        prompter,
      }),
    );
    expect(prod.isError).toBe(true);
    expect(asked).toHaveLength(2);
  });
});
