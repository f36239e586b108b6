import { describe, expect, it } from "vitest";
import * as z from "zod";
import { runToolCalls } from "../../pipeline/orchestrate.ts";
import { type PipelineEvent, runToolUse } from "../../pipeline/runToolUse.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { createToolUseContext } from "../../tool/createContext.ts";
import { type Message, resultText } from "../../tool/messages.ts";
import { partitionDeferredTools } from "../../tool/registry.ts";
import { buildTool, type Tool } from "../../tool/Tool.ts";
import { getLoadedDeferredToolNames, loadedToolNamesFromMessages, ToolSearchTool } from "./ToolSearchTool.ts";

function tool(
  name: string,
  prompt: string,
  extra: { searchHint?: string; shouldDefer?: boolean } = {},
): Tool {
  return buildTool<{ text?: string }, string>({
    name,
    inputSchema: z.strictObject({ text: z.string().optional() }),
    maxResultSizeChars: 1000,
    prompt: () => prompt,
    description: () => name,
    isReadOnly: true,
    isConcurrencySafe: true,
    checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),
    call: async () => ({ data: `${name} ran` }),
    shouldDefer: extra.shouldDefer ?? true,
    ...(extra.searchHint ? { searchHint: extra.searchHint } : {}),
  }) as Tool;
}

const github = tool("mcp__github__create_issue", "Create an issue in a GitHub repository.", {
  searchHint: "open a new bug report",
});
const githubPr = tool("mcp__github__create_pull_request", "Open a pull request on GitHub.");
const slack = tool("mcp__slack__send_message", "Send a message to a Slack channel.");
const notebook = tool("NotebookEdit", "Edit a cell of a Jupyter notebook.");
const read = tool("Read", "Read a file.", { shouldDefer: false });
const aside = tool("CronCreate", "Schedule a recurring prompt.", { shouldDefer: false });

function session(): ToolUseContext {
  const context = createToolUseContext({ tools: [ToolSearchTool, read, github, githubPr, slack, notebook] });
  context.options = { ...context.options, ...{ deferredTools: [aside] } };
  return context;
}

async function search(context: ToolUseContext, input: Record<string, unknown>) {
  const calls = [{ type: "tool_use" as const, id: "toolu_s", name: "ToolSearch", input }];
  const run = runToolCalls(calls, context);
  const events: PipelineEvent[] = [];
  let step = await run.next();
  while (!step.done) {
    events.push(step.value);
    step = await run.next();
  }
  const result = events.find((event) => event.type === "result");
  if (result?.type !== "result") throw new Error("no result");
  return { text: resultText(result.block.content), context: step.value, block: result.block };
}

describe("ToolSearch", () => {
  it("select:Name loads the named tools into the pool and records them as loaded", async () => {
    const { text, context } = await search(session(), { query: "select:NotebookEdit,CronCreate,Nope" });
    expect(text.split("\n")[0]).toBe("Loaded tools: NotebookEdit, CronCreate");
    expect(text).toContain('<tool name="NotebookEdit">');
    expect(text).toContain("Edit a cell of a Jupyter notebook.");
    expect(text).toContain('"text":{"type":"string"}');
    expect(text).toContain("Not found among the deferred tools: Nope.");
    expect([...getLoadedDeferredToolNames(context)]).toEqual(["NotebookEdit", "CronCreate"]);
    expect(context.options.tools.map((t) => t.name)).toContain("CronCreate");
    const { loaded, deferred } = partitionDeferredTools(
      context.options.tools,
      getLoadedDeferredToolNames(context),
    );
    expect(loaded.map((t) => t.name)).toEqual(expect.arrayContaining(["NotebookEdit", "Read", "ToolSearch"]));
    expect(deferred.map((t) => t.name).sort()).toEqual([githubPr.name, github.name, slack.name].sort());
  });

  it("a tool kept aside is callable through the pipeline once loaded", async () => {
    const before = session();
    const refused = runToolUse({ type: "tool_use", id: "t1", name: "CronCreate", input: {} }, before);
    const first = await refused.next();
    expect(first.value && first.value.type === "result" && first.value.isError).toBe(true);
    const { context } = await search(before, { query: "select:CronCreate" });
    const run = runToolUse({ type: "tool_use", id: "t2", name: "CronCreate", input: {} }, context);
    const result = (await run.next()).value;
    expect(result && result.type === "result" && resultText(result.block.content)).toBe("CronCreate ran");
  });

  it.each([
    ["github issue", "mcp__github__create_issue"],
    ["bug report", "mcp__github__create_issue"],
    ["slack", "mcp__slack__send_message"],
    ["jupyter", "NotebookEdit"],
    ["schedule recurring", "CronCreate"],
  ])("keyword search %j ranks %s first", async (query, best) => {
    const { text } = await search(session(), { query });
    expect(text.split("\n")[0]?.replace("Loaded tools: ", "").split(", ")[0]).toBe(best);
  });

  it("+word makes a word required, and max_results limits the loaded tools", async () => {
    const required = await search(session(), { query: "+slack message pull request" });
    expect(required.text.split("\n")[0]).toBe("Loaded tools: mcp__slack__send_message");
    const limited = await search(session(), { query: "github", max_results: 1 });
    expect([...getLoadedDeferredToolNames(limited.context)]).toHaveLength(1);
  });

  it("finds nothing for unrelated words, and leaves the pool as it was", async () => {
    const start = session();
    const { text, context } = await search(start, { query: "kubernetes" });
    expect(text).toContain('No deferred tool matches "kubernetes"');
    expect(context.options.tools).toBe(start.options.tools);
  });

  it("lists the deferred tools' names in its prompt", async () => {
    const prompt = await ToolSearchTool.prompt({ tools: session().options.tools });
    expect(prompt).toContain("mcp__slack__send_message");
    expect(prompt).not.toContain("\nRead\n");
  });

  it("the loop can recover loaded tools from a transcript", async () => {
    const { block } = await search(session(), { query: "select:NotebookEdit" });
    const messages: Message[] = [
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_s", name: "ToolSearch", input: {} }] },
      { role: "user", content: [block] },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "other", content: "Loaded tools: Fake" }],
      },
    ];
    expect([...loadedToolNamesFromMessages(messages)]).toEqual(["NotebookEdit"]);
  });
});
