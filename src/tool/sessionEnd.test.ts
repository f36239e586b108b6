import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { getBackgroundTask, startBackgroundTask } from "../shell/run/background.ts";
import { forgetAgents, listAgents, registerAgent } from "../tools/agent/runningAgents.ts";
import { releaseSession } from "./sessionEnd.ts";

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

function agent(id: string) {
  return {
    id,
    agentType: "general-purpose",
    description: id,
    fork: false,
    background: false,
    status: "running",
    startedAt: 0,
    lastActivityAt: 0,
    send() {},
  } as const;
}

describe("releaseSession", () => {
  it("stops the session's background commands and forgets its sub-agents, and only that session's", async () => {
    const dir = await mkdtemp(join(tmpdir(), "keel-release-"));
    folders.push(dir);
    const ending = randomUUID();
    const staying = randomUUID();
    const task = await startBackgroundTask(ending, { command: "sleep 30", cwd: dir, outputDir: dir });
    registerAgent(ending, { ...agent("agent_1") });
    registerAgent(staying, { ...agent("agent_2") });

    await releaseSession(ending);

    expect(listAgents(ending)).toEqual([]);
    expect(listAgents(staying).map((a) => a.id)).toEqual(["agent_2"]);
    // Killed and dropped from the registry: a later TaskOutput finds nothing running.
    expect(getBackgroundTask(ending, task.id)).toBeUndefined();
    forgetAgents(staying);
  });
});
