// What the session remembers about read files follows what the model can still see: /clear forgets
// every read, and compaction forgets the reads whose results it summarized away, so Read never answers
// "unchanged since last read" about content the model no longer has.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempFolderForTest } from "../tool/testing/tempFolder.ts";
import { UNCHANGED_STUB } from "../tools/read/output.ts";
import { ReadTool } from "../tools/read/ReadTool.ts";
import { type ScriptedAgent, scriptedAgentForTest } from "./testing/harness.ts";
import { type ScriptTurn, text, toolUse } from "./testing/script.ts";

interface Block {
  type: string;
  tool_use_id?: string;
  content?: unknown;
}

function isSummaryRequest(body: Record<string, unknown>): boolean {
  return JSON.stringify(body.system).includes("summarize the earlier part");
}

/** The tool results the model got in the last request, by tool_use id. */
function lastResults(made: ScriptedAgent): Map<string, string> {
  const messages = made.server.requests.at(-1)!.body.messages as Array<{ content: Block[] | string }>;
  const results = new Map<string, string>();
  for (const message of messages) {
    if (typeof message.content === "string") continue;
    for (const block of message.content)
      if (block.type === "tool_result") results.set(block.tool_use_id!, JSON.stringify(block.content));
  }
  return results;
}

async function readingAgent(
  cwd: string,
  turns: ScriptTurn[],
  contextWindow = 200_000,
): Promise<ScriptedAgent> {
  let played = 0;
  return scriptedAgentForTest({
    protocol: "anthropic",
    tools: [ReadTool],
    session: { cwd },
    script: (request) =>
      isSummaryRequest(request.body) ? { blocks: [text("SUMMARY of the earlier reads")] } : turns[played++]!,
    agent: { modelInfo: { contextWindow, maxOutputTokens: 1000 } },
  });
}

function project(): string {
  return tempFolderForTest("keel-reads-");
}

describe("read state across /clear", () => {
  it("a Read after /clear returns the content; without /clear it is the unchanged stub", async () => {
    const dir = project();
    const file = join(dir, "notes.txt");
    writeFileSync(file, "the secret is 42\n");
    const made = await readingAgent(dir, [
      { blocks: [toolUse("Read", { file_path: file }, "read-1")] },
      { blocks: [text("read it")] },
      { blocks: [toolUse("Read", { file_path: file }, "read-2")] },
      { blocks: [text("again")] },
      { blocks: [toolUse("Read", { file_path: file }, "read-3")] },
      { blocks: [text("after clear")] },
    ]);
    await made.run("read notes");
    await made.run("read notes again");
    // Same conversation: the model still has read-1, so the stub is right.
    expect(lastResults(made).get("read-2")).toContain(UNCHANGED_STUB.slice(0, 30));

    made.agent.clear();
    await made.run("read notes after clear");
    const results = lastResults(made);
    expect([...results.keys()]).toEqual(["read-3"]);
    expect(results.get("read-3")).toContain("the secret is 42");
    expect(results.get("read-3")).not.toContain("unchanged");
  });
});

describe("read state across compaction", () => {
  it("forgets reads whose results were summarized away and keeps those still in the conversation", async () => {
    const dir = project();
    const early = join(dir, "early.txt");
    const recent = join(dir, "recent.txt");
    // early.txt's result alone is over the kept share of the window (500 tokens of 2,000).
    writeFileSync(early, `${"early content line\n".repeat(200)}`);
    writeFileSync(recent, "recent content\n");
    const made = await readingAgent(
      dir,
      [
        { blocks: [toolUse("Read", { file_path: early }, "read-early")] },
        { blocks: [text("ok")] },
        { blocks: [toolUse("Read", { file_path: recent }, "read-recent")] },
        { blocks: [text("ok")] },
        {
          blocks: [
            toolUse("Read", { file_path: early }, "again-early"),
            toolUse("Read", { file_path: recent }, "again-recent"),
          ],
        },
        { blocks: [text("done")] },
      ],
      2000,
    );
    await made.run("read early");
    await made.run("read recent");
    const compaction = made.agent.compact({ trigger: "manual" });
    let compacted = false;
    for await (const event of compaction) if (event.type === "compacted") compacted = true;
    expect(compacted).toBe(true);
    // The summary replaced the early read; the recent one is still there verbatim.
    const kept = JSON.stringify(made.agent.messages);
    expect(kept).not.toContain("read-early");
    expect(kept).toContain("read-recent");

    await made.run("read both again");
    const results = lastResults(made);
    expect(results.get("again-early")).toContain("early content line");
    expect(results.get("again-recent")).toContain(UNCHANGED_STUB.slice(0, 30));
  });
});
