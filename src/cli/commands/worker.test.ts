// Remote agents end to end, with real processes: a redis-server on 127.0.0.1 started here, two
// `keel worker` processes in folders and HOMEs of their own (two machines), a bare repository as the
// shared remote, `keel run` as the parent, and one scripted model server playing the parent and every
// worker's agent (each recognised by its prompt).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliProviderArgs, startServer, TEST_KEY } from "../../agent/testing/harness.ts";
import { type RecordedRequest, text, toolUse } from "../../agent/testing/script.ts";
import type { ScriptedServer } from "../../agent/testing/server.ts";
import { redisServerMissing, startRedis, type TestRedis } from "../../remote/testing/redisServer.ts";
import {
  git,
  type RemoteWorld,
  remoteWorld,
  startWorkerProcess,
  type WorkerProcess,
} from "../../remote/testing/world.ts";
import {
  agentIdsIn,
  byPrompt,
  conversationText,
  firstUserText,
  type Route,
  routedScript,
} from "../../tools/agent/testing.ts";
import { ENTRY, type KeelResult, runScript } from "../testing/keelProcess.ts";

const missing = redisServerMissing();
const QUEUE = "keel-test";

/** Resolves when `release` is called: holds a scripted turn until the test says so. */
function gate(): { wait: Promise<void>; release: () => void } {
  let release = () => {};
  const wait = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { wait, release };
}

/** The worktree the worker's agent was told it works in. */
function worktreeOf(request: RecordedRequest): string {
  const found = /, in (\/\S+\/worktree)\./.exec(firstUserText(request));
  if (!found?.[1]) throw new Error(`no worktree in: ${firstUserText(request).slice(0, 300)}`);
  return found[1];
}

/** The first agent id the parent's conversation mentions (the Agent call's result). */
function agentIdOf(request: RecordedRequest): string {
  const id = agentIdsIn(request)[0];
  if (!id) throw new Error("no agent id in the parent's conversation yet");
  return id;
}

function auditRecords(home: string): Array<Record<string, unknown>> {
  const dir = join(home, ".keel", "audit");
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((file) =>
    readFileSync(join(dir, file), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>),
  );
}

describe.skipIf(missing !== undefined)(
  `remote agents (${missing ?? "redis-server, two keel workers, a bare remote"})`,
  () => {
    let redis: TestRedis;
    let server: ScriptedServer;
    let world: RemoteWorld;
    let workers: WorkerProcess[] = [];
    const routes: Route[] = [];
    const script = routedScript(routes);

    beforeAll(async () => {
      redis = await startRedis();
      server = await startServer("anthropic", script);
      world = remoteWorld();
      workers = ["wA", "wB"].map((name) =>
        startWorkerProcess(world.root, {
          name,
          queueUrl: redis.url,
          queueName: QUEUE,
          modelUrl: server.url,
          // Each machine's own policy: no `touch` here, whatever the job allows.
          managed: { permissions: { deny: ["Bash(touch:*)"] } },
        }),
      );
      await Promise.all(workers.map((worker) => worker.ready));
    }, 120_000);

    afterAll(async () => {
      await Promise.all(workers.map((worker) => worker.stop()));
      await server?.close();
      await redis?.stop();
      world?.cleanup();
    }, 60_000);

    function parentRun(prompt: string, flags: string[], env: NodeJS.ProcessEnv = {}): Promise<KeelResult> {
      return runScript(ENTRY, ["run", ...cliProviderArgs(server), ...flags, prompt], {
        cwd: world.parent.project,
        env: { ...world.parent.env, KEEL_REMOTE_QUEUE: redis.url, KEEL_REMOTE_QUEUE_NAME: QUEUE, ...env },
      });
    }

    it("a remote agent completes on a worker: branch pushed, progress streamed to the parent, decisions in the parent's audit with the worker's name, denied calls denied on the worker", async () => {
      const parentSawProgress = gate();
      routes.push(
        {
          name: "parent-main",
          match: byPrompt("PARENT: add notes remotely"),
          turns: [
            {
              blocks: [
                toolUse("Agent", {
                  description: "Add notes remotely",
                  prompt: "REMOTE TASK: add notes",
                  isolation: "remote",
                }),
              ],
            },
            (request) => ({
              blocks: [
                toolUse("Monitor", {
                  task_id: agentIdOf(request),
                  pattern: "Writing notes",
                  timeout: 120_000,
                }),
              ],
            }),
            (request) => {
              parentSawProgress.release();
              return {
                blocks: [
                  toolUse("TaskOutput", { task_id: agentIdOf(request), block: true, timeout: 180_000 }),
                ],
              };
            },
            { blocks: [text("PARENT DONE")] },
          ],
        },
        {
          name: "worker-notes",
          match: byPrompt("REMOTE TASK: add notes"),
          turns: [
            (request) => ({
              blocks: [
                text("Writing notes."),
                toolUse("Write", {
                  file_path: join(worktreeOf(request), "notes.txt"),
                  content: "remote notes\n",
                }),
              ],
            }),
            {
              blocks: [
                toolUse("Bash", {
                  command: "git add notes.txt && git commit -q -m 'Add notes from the remote agent'",
                }),
              ],
              beforeStop: () => parentSawProgress.wait,
            },
            // One call a turn: a refused Bash call cancels the Bash calls beside it.
            { blocks: [toolUse("Bash", { command: "rm -f README.md" })] },
            { blocks: [toolUse("Bash", { command: "touch denied.txt" })] },
            { blocks: [text("REPORT: notes added on the worker")] },
          ],
        },
      );
      const result = await parentRun("PARENT: add notes remotely", [
        "--allow",
        "Agent",
        "--mode",
        "acceptEdits",
        "--allow",
        "Bash(git add:*)",
        "--allow",
        "Bash(git commit:*)",
        "--deny",
        "Bash(rm:*)",
      ]);
      expect(result.stderr).toBe("");
      expect(result.stdout).toContain("PARENT DONE");
      expect(result.code).toBe(0);

      const parent = script.requestsOf("parent-main");
      const agentId = agentIdOf(parent[1]!);
      // The Monitor's answer came while the worker still held its second turn: progress streamed.
      expect(conversationText(parent[2]!)).toContain("Writing notes");
      const last = conversationText(parent[3]!);
      expect(last).toContain("REPORT: notes added on the worker");
      expect(last).toContain(`keel/${agentId}`);

      // The branch on the shared remote holds the agent's commit.
      const log = git(["log", "--format=%s", `keel/${agentId}`], world.remote);
      expect(log.split("\n")[0]).toBe("Add notes from the remote agent");
      expect(git(["show", `keel/${agentId}:notes.txt`], world.remote)).toBe("remote notes\n");
      // The base ref the parent pushed is gone again.
      expect(git(["for-each-ref", "refs/keel/"], world.remote).trim()).toBe("");

      // The worker's decisions are in the parent's audit log, with the worker's name.
      const records = auditRecords(world.parent.home).filter((record) => record.agentId === agentId);
      const worker = records.find((record) => record.tool === "Write")?.worker as string;
      expect(["wA", "wB"]).toContain(worker);
      expect(records.find((record) => record.tool === "Write")).toMatchObject({ behavior: "allow", worker });
      const denied = records.filter((record) => record.behavior === "deny");
      expect(denied.map((record) => record.decidedBy)).toEqual(
        expect.arrayContaining([
          "deny rule Bash(rm:*) from cliArg settings",
          "deny rule Bash(touch:*) from policy settings",
        ]),
      );
      // Denied on the worker: README is still in the pushed branch, denied.txt was never made.
      expect(git(["ls-tree", "--name-only", `keel/${agentId}`], world.remote).split("\n")).toEqual(
        expect.arrayContaining(["README.md", "notes.txt"]),
      );
      expect(git(["ls-tree", "--name-only", `keel/${agentId}`], world.remote)).not.toContain("denied.txt");
      // The worker removed its worktree.
      const ran = workers.find((candidate) => candidate.name === worker)!;
      expect(readdirSync(join(ran.dir, "jobs"))).toEqual([]);
    }, 240_000);
  },
);
