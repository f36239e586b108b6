// `keel run` (a session that can be resumed) as a real process against a scripted model on 127.0.0.1:
// its saved result stays beside the transcript after the run (0600 in a 0700 folder), and is removed
// when a later session starts in the project once the first has been inactive past the age.
import { lstatSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { keelWorld, runKeel } from "../cli/testing/keelProcess.ts";
import { SAVED_RESULTS_MAX_AGE_DAYS } from "./savedResults.ts";
import { cliProviderArgs, startServer } from "./testing/harness.ts";
import { text, toolUse } from "./testing/script.ts";
import type { ScriptedServer } from "./testing/server.ts";
import { transcriptDir } from "./transcript.ts";

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const modeOf = (path: string) => lstatSync(path).mode & 0o7777;

describe("keel run: saved results of a resumable session", () => {
  it("are kept after the run, private, and removed by a later session once inactive past the age", async () => {
    const world = keelWorld();
    const lines = Array.from({ length: 300 }, (_, i) => `API_KEY=secret-${i} ${"x".repeat(100)}`);
    writeFileSync(join(world.project, "env.txt"), `${lines.join("\n")}\n`);
    const first = await startServer("anthropic", [
      { blocks: [toolUse("Grep", { pattern: "API_KEY", output_mode: "content", head_limit: 300 })] },
      { blocks: [text("Found them.")] },
    ]);
    servers.push(first);
    const run = await runKeel(["run", ...cliProviderArgs(first), "find the keys"], world);
    expect(run.code).toBe(0);
    const dir = transcriptDir(world.project, world.env);
    const sessionId = (readdirSync(dir).find((name) => name.endsWith(".jsonl")) as string).replace(
      ".jsonl",
      "",
    );
    const results = join(dir, sessionId, "tool-results");
    const saved = readdirSync(results);
    expect(saved).toHaveLength(1);
    expect(modeOf(join(results, saved[0] as string))).toBe(0o600);
    expect(modeOf(results)).toBe(0o700);

    // The first session inactive since just past the age: its transcript and results untouched that long.
    const then = new Date(Date.now() - (SAVED_RESULTS_MAX_AGE_DAYS + 1) * 24 * 60 * 60 * 1000);
    utimesSync(results, then, then);
    utimesSync(join(dir, `${sessionId}.jsonl`), then, then);
    const second = await startServer("anthropic", [{ blocks: [text("Hello.")] }]);
    servers.push(second);
    expect((await runKeel(["run", ...cliProviderArgs(second), "hi"], world)).code).toBe(0);
    expect(readdirSync(dir)).not.toContain(sessionId);
    expect(readdirSync(dir)).toContain(`${sessionId}.jsonl`);
  });
});
