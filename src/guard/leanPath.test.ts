// `keel hook` runs on every tool call of another agent, so its process loads only what deciding one call
// needs: no MCP client or server, no agent or model SDKs, no terminal UI, no tool but the judged one.
// Checked on the real process: a module hook records every module it loads.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notOnHookPath, toolsLoaded, writeModuleRecorder } from "./testing/leanPath.ts";
import { createHookWorld, type HookWorld, recordedClaudeCodeEvents, recordedEvent } from "./testing/world.ts";

const REPO = join(import.meta.dirname, "..", "..");
const ENTRY = join(REPO, "src", "cli", "entry.ts");

let world: HookWorld;
let recorder: string;
beforeAll(() => {
  world = createHookWorld({});
  recorder = writeModuleRecorder(world.base);
});
afterAll(() => world.cleanup());

/** The repository files (and packages) the hook process loaded for this event. */
function loadedFor(event: Record<string, unknown>): string[] {
  const list = join(world.base, "loaded.json");
  const run = spawnSync(process.execPath, ["--import", recorder, ENTRY, "hook", "claude-code"], {
    cwd: world.project,
    input: JSON.stringify(event),
    env: { ...world.env, KEEL_TEST_LOADED: list },
    encoding: "utf8",
    timeout: 60_000,
  });
  if (run.status !== 0) throw new Error(`keel hook exited ${run.status}: ${run.stderr}`);
  return (JSON.parse(readFileSync(list, "utf8")) as string[])
    .filter((url) => url.startsWith("file:"))
    .map((url) => relative(REPO, new URL(url).pathname));
}

describe("the keel hook process", () => {
  it("loads Read and nothing it does not need for a Read", { timeout: 60_000 }, () => {
    const files = loadedFor(recordedEvent(recordedClaudeCodeEvents(world), "PreToolUse", "Read"));
    expect(notOnHookPath(files)).toEqual([]);
    expect(toolsLoaded(files)).toEqual(["read"]);
    expect(files.some((file) => file.startsWith("node_modules/web-tree-sitter/"))).toBe(false);
  });

  it("loads Bash and the grammar for a Bash command, and no other tool", { timeout: 60_000 }, () => {
    const files = loadedFor(recordedEvent(recordedClaudeCodeEvents(world), "PreToolUse", "Bash"));
    expect(notOnHookPath(files)).toEqual([]);
    expect(toolsLoaded(files)).toEqual(["bash"]);
    expect(files.some((file) => file.startsWith("node_modules/web-tree-sitter/"))).toBe(true);
  });

  it("loads no tool for a tool Keel does not judge", { timeout: 60_000 }, () => {
    const event = {
      ...recordedEvent(recordedClaudeCodeEvents(world), "PreToolUse", "Read"),
      tool_name: "TodoWrite",
    };
    const files = loadedFor(event);
    expect(toolsLoaded(files)).toEqual([]);
    expect(notOnHookPath(files)).toEqual([]);
  });
});
