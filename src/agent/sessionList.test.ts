// The sessions /resume offers: real transcript files in a temp folder, newest first, each with its first
// prompt; sessions without a prompt and the one running now are left out.
import { mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sessionSummaries, timeAgo } from "./sessionList.ts";
import { Transcript } from "./transcript.ts";

const dir = mkdtempSync(join(tmpdir(), "keel-sessions-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function session(id: string, prompts: string[], ageSeconds: number): void {
  const transcript = new Transcript(dir, id);
  transcript.append({
    type: "session",
    sessionId: id,
    cwd: "/p",
    provider: "anthropic",
    model: "m",
    version: 1,
    time: new Date().toISOString(),
  });
  for (const prompt of prompts) {
    transcript.message({ role: "user", content: [{ type: "text", text: prompt }] });
    transcript.message({ role: "assistant", content: [{ type: "text", text: "ok" }] });
    transcript.message({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "t", content: "not a prompt" }],
    });
  }
  const when = Date.now() / 1000 - ageSeconds;
  utimesSync(transcript.path, when, when);
}

describe("sessionSummaries", () => {
  it("lists sessions with a prompt, newest first, without the current one", () => {
    session("old", ["fix the\n  build please", "and the tests"], 3600);
    session("new", ["add a flag"], 60);
    session("empty", [], 10);
    session("current", ["what is running now"], 1);
    const summaries = sessionSummaries(dir, "current");
    expect(summaries.map((s) => [s.sessionId, s.firstPrompt, s.prompts])).toEqual([
      ["new", "add a flag", 1],
      ["old", "fix the build please", 2],
    ]);
  });
});

describe("timeAgo", () => {
  it.each([
    [0, "just now"],
    [59, "just now"],
    [60, "1 minute ago"],
    [7200, "2 hours ago"],
    [86_400 * 3, "3 days ago"],
  ])("%d s: %s", (seconds, text) => {
    expect(timeAgo(0, seconds * 1000)).toBe(text);
  });
});
