// Remote agents end to end, with real processes: a redis-server on 127.0.0.1 started here, two
// `keel worker` processes in folders and HOMEs of their own (two machines), a bare repository as the
// shared remote, `keel run` as the parent, and one scripted model server playing the parent and every
// worker's agent (each recognised by its prompt).
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../../agent/Agent.ts";
import { modelInfo } from "../../agent/models.ts";
import { AnthropicProvider } from "../../agent/providers/anthropic.ts";
import { cliProviderArgs, collectRun, startServer, TEST_KEY } from "../../agent/testing/harness.ts";
import { type RecordedRequest, text, toolUse } from "../../agent/testing/script.ts";
import type { ScriptedServer } from "../../agent/testing/server.ts";
import { JsonlAuditSink } from "../../audit/jsonlSink.ts";
import { callbackPrompter } from "../../permissions/prompters/callbackPrompter.ts";
import { resolveRemoteQueue } from "../../remote/config.ts";
import {
  freePort,
  redisServerMissing,
  startRedis,
  type TestRedis,
} from "../../remote/testing/redisServer.ts";
import {
  git,
  type RemoteWorld,
  remoteWorld,
  startWorkerProcess,
  type WorkerProcess,
} from "../../remote/testing/world.ts";
import { createToolUseContext } from "../../tool/createContext.ts";
import {
  agentIdsIn,
  byPrompt,
  conversationText,
  firstUserText,
  type Route,
  routedScript,
} from "../../tools/agent/testing.ts";
import { builtinTools } from "../../tools/builtinTools.ts";
import { ENTRY, type KeelResult, keelWorld, runKeel, runScript } from "../testing/keelProcess.ts";

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

/** Waits (up to 20 s) until `check` holds. */
async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(check()).toBe(true);
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
      // The job carried the model's name and where the parent's requests go, never a key.
      const { Redis } = await import("ioredis");
      const client = new Redis(redis.url, { protocol: 2 });
      try {
        const data = JSON.parse((await client.hget(`bull:${QUEUE}:${agentId}`, "data")) ?? "{}");
        expect(data.model).toEqual({ name: "claude-test", provider: "anthropic", baseURL: server.url });
        expect(data.policy).toMatchObject({
          mode: "acceptEdits",
          canAsk: false,
          deny: { cliArg: ["Bash(rm:*)"] },
        });
        expect(JSON.stringify(data)).not.toContain(TEST_KEY);
      } finally {
        client.disconnect();
      }
    }, 240_000);

    it("approvals on the worker come back to the parent as questions; the person's answers decide there", async () => {
      routes.push(
        {
          name: "parent-ask",
          match: byPrompt("PARENT: ask me"),
          turns: [
            {
              blocks: [
                toolUse("Agent", {
                  description: "Write two files",
                  prompt: "REMOTE TASK: write two files",
                  isolation: "remote",
                }),
              ],
            },
            (request) => ({
              blocks: [toolUse("TaskOutput", { task_id: agentIdOf(request), block: true, timeout: 120_000 })],
            }),
            { blocks: [text("PARENT ASKED")] },
          ],
        },
        {
          name: "worker-ask",
          match: byPrompt("REMOTE TASK: write two files"),
          turns: [
            (request) => ({
              blocks: [
                toolUse("Write", { file_path: join(worktreeOf(request), "approved.txt"), content: "yes\n" }),
              ],
            }),
            (request) => ({
              blocks: [
                toolUse("Write", { file_path: join(worktreeOf(request), "secret.txt"), content: "no\n" }),
              ],
            }),
            { blocks: [text("REPORT: one approved, one refused")] },
          ],
        },
      );
      const asked: Array<{ tool: string; message: string }> = [];
      const prompter = callbackPrompter(async (tool, input, options) => {
        asked.push({ tool, message: options.message });
        const path = (input as { file_path?: string }).file_path ?? "";
        return path.endsWith("secret.txt")
          ? { behavior: "deny", message: "not that one" }
          : { behavior: "allow" };
      }, "test person");
      const auditDir = join(world.root, "parent-audit");
      const tools = builtinTools();
      const context = createToolUseContext({
        tools,
        cwd: world.parent.project,
        mode: "default",
        toolResultsDir: join(world.root, "parent-tool-results"),
        remoteAgents: resolveRemoteQueue(undefined, {
          KEEL_REMOTE_QUEUE: redis.url,
          KEEL_REMOTE_QUEUE_NAME: QUEUE,
        }),
      });
      const parent = new Agent({
        provider: new AnthropicProvider({ apiKey: TEST_KEY, baseURL: server.url }),
        model: "claude-test",
        modelInfo: modelInfo("claude-test"),
        tools,
        context,
        services: { prompter, audit: new JsonlAuditSink({ dir: auditDir, recheckMs: 0 }) },
        system: [{ text: "You are the parent." }],
      });
      const { outcome } = await collectRun(parent.submit("PARENT: ask me"));
      expect(outcome.reason).toBe("completed");
      const agentId = agentIdOf(script.requestsOf("parent-ask")[1]!);
      // Asked three times: the spawn itself, then each Write on the worker, named as the worker's.
      expect(asked.map((entry) => entry.tool)).toEqual(["Agent", "Write", "Write"]);
      expect(asked[1]!.message).toMatch(new RegExp(`^Remote agent ${agentId} on worker w[AB]: `));
      expect(conversationText(script.requestsOf("parent-ask")[2]!)).toContain(
        "REPORT: one approved, one refused",
      );
      // The approved file is on the pushed branch (committed by the worker), the refused one is not.
      const files = git(["ls-tree", "--name-only", `keel/${agentId}`], world.remote).split("\n");
      expect(files).toContain("approved.txt");
      expect(files).not.toContain("secret.txt");
      const writes = readdirSync(auditDir)
        .flatMap((file) => readFileSync(join(auditDir, file), "utf8").trim().split("\n"))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((record) => record.agentId === agentId && record.tool === "Write");
      expect(writes.map((record) => [record.behavior, record.decidedBy])).toEqual([
        ["allow", "user via the parent session (once)"],
        ["deny", "user via the parent session (reject)"],
      ]);
      expect(writes.every((record) => record.worker === "wA" || record.worker === "wB")).toBe(true);
    }, 180_000);

    it("SendMessage reaches a remote agent, and TaskStop stops one", async () => {
      const ids = (request: RecordedRequest) => [...new Set(agentIdsIn(request))];
      const looping = (marker: string, done: (request: RecordedRequest) => boolean) =>
        Array.from(
          { length: 600 },
          () => (request: RecordedRequest) =>
            done(request)
              ? { blocks: [text(marker)] }
              : {
                  blocks: [toolUse("Read", { file_path: join(worktreeOf(request), "README.md") })],
                  spreadMs: 100,
                },
        );
      routes.push(
        {
          name: "parent-control",
          match: byPrompt("PARENT: talk and stop"),
          turns: [
            {
              blocks: [
                toolUse("Agent", {
                  description: "Listen",
                  prompt: "REMOTE TASK: listen for a message",
                  isolation: "remote",
                  name: "listener",
                }),
              ],
            },
            {
              blocks: [toolUse("SendMessage", { to: "listener", message: "PARENT SAYS: the answer is 42" })],
            },
            (request) => ({
              blocks: [toolUse("TaskOutput", { task_id: ids(request)[0], block: true, timeout: 120_000 })],
            }),
            {
              blocks: [
                toolUse("Agent", {
                  description: "Loop",
                  prompt: "REMOTE TASK: loop until stopped",
                  isolation: "remote",
                }),
              ],
            },
            (request) => ({
              blocks: [toolUse("Monitor", { task_id: ids(request)[1], pattern: "→ Read", timeout: 120_000 })],
            }),
            (request) => ({ blocks: [toolUse("TaskStop", { task_id: ids(request)[1] })] }),
            (request) => ({
              blocks: [toolUse("TaskOutput", { task_id: ids(request)[1], block: true, timeout: 60_000 })],
            }),
            { blocks: [text("PARENT CONTROLLED")] },
          ],
        },
        {
          name: "worker-listen",
          match: byPrompt("REMOTE TASK: listen for a message"),
          turns: looping("GOT MESSAGE: the answer is 42", (request) =>
            conversationText(request).includes("PARENT SAYS: the answer is 42"),
          ),
        },
        {
          name: "worker-loop",
          match: byPrompt("REMOTE TASK: loop until stopped"),
          turns: looping("never reached", () => false),
        },
      );
      const result = await parentRun("PARENT: talk and stop", ["--allow", "Agent"]);
      expect(result.stdout).toContain("PARENT CONTROLLED");
      expect(result.code).toBe(0);
      const parent = script.requestsOf("parent-control");
      const [listener, looper] = ids(parent[7]!);
      // The message arrived in the worker's conversation, and the report came back.
      expect(conversationText(parent[3]!)).toContain("GOT MESSAGE: the answer is 42");
      expect(conversationText(parent[6]!)).toContain(`Task ${looper} stopped`);
      expect(conversationText(parent[7]!)).toContain(`Task ${looper} was stopped.`);
      // The worker logs the job's end once the parent has its report.
      await waitFor(() => workers.some((candidate) => candidate.output().includes(`job ${looper} stopped`)));
      expect(listener).toBeDefined();
      // The stopped agent's loop ended: no request came after the stop was confirmed.
      const loopRequests = script.requestsOf("worker-loop").length;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(script.requestsOf("worker-loop").length).toBe(loopRequests);
    }, 240_000);

    it("an unreachable queue is a clear error at spawn, without the password", async () => {
      const port = await freePort();
      routes.push({
        name: "parent-unreachable",
        match: byPrompt("PARENT: queue is down"),
        turns: [
          {
            blocks: [
              toolUse("Agent", {
                description: "Nowhere",
                prompt: "REMOTE TASK: never runs",
                isolation: "remote",
              }),
            ],
          },
          { blocks: [text("PARENT SAW THE ERROR")] },
        ],
      });
      const result = await parentRun("PARENT: queue is down", ["--allow", "Agent"], {
        KEEL_REMOTE_QUEUE: `redis://:s3cret-password@127.0.0.1:${port}`,
      });
      expect(result.code).toBe(0);
      const seen = conversationText(script.requestsOf("parent-unreachable")[1]!);
      expect(seen).toContain(
        `Could not reach the remote-agent queue at redis://:***@127.0.0.1:${port} (KEEL_REMOTE_QUEUE): connection refused (nothing listens on that port).`,
      );
      expect(seen).toContain("No agent was started.");
      expect(seen).not.toContain("s3cret-password");
      expect(git(["for-each-ref", "refs/keel/"], world.remote).trim()).toBe("");
    }, 120_000);

    it("a job no worker takes within the claim timeout is reported unclaimed and removed", async () => {
      const settings = join(world.root, "claim-timeout.json");
      writeFileSync(settings, JSON.stringify({ agents: { remote: { claimTimeoutSeconds: 2 } } }));
      routes.push({
        name: "parent-unclaimed",
        match: byPrompt("PARENT: nobody listens"),
        turns: [
          {
            blocks: [
              toolUse("Agent", {
                description: "Unclaimed",
                prompt: "REMOTE TASK: unclaimed",
                isolation: "remote",
              }),
            ],
          },
          (request) => ({
            blocks: [toolUse("TaskOutput", { task_id: agentIdOf(request), block: true, timeout: 60_000 })],
          }),
          { blocks: [text("PARENT SAW UNCLAIMED")] },
        ],
      });
      const result = await parentRun("PARENT: nobody listens", ["--allow", "Agent", "--settings", settings], {
        KEEL_REMOTE_QUEUE_NAME: "nobody-listens",
      });
      expect(result.code).toBe(0);
      const requests = script.requestsOf("parent-unclaimed");
      const agentId = agentIdOf(requests[1]!);
      const seen = conversationText(requests[2]!);
      expect(seen).toContain("unclaimed: no worker took the job within 2 s");
      expect(seen).toContain(`Task ${agentId} (sub-agent) failed`);
      const { Queue } = await import("bullmq");
      const queue = new Queue("nobody-listens", { connection: { url: redis.url } });
      try {
        expect(await queue.getJobState(agentId)).toBe("unknown");
      } finally {
        await queue.close();
      }
      expect(git(["for-each-ref", "refs/keel/"], world.remote).trim()).toBe("");
    }, 120_000);

    it("keel doctor sees the queue answer", async () => {
      const result = await runScript(ENTRY, ["doctor", "--no-mcp"], {
        cwd: world.parent.project,
        env: { ...world.parent.env, KEEL_REMOTE_QUEUE: redis.url, KEEL_REMOTE_QUEUE_NAME: QUEUE },
      });
      expect(result.stdout).toMatch(
        new RegExp(
          `^ok {4}remote {3}remote-agent queue "${QUEUE}" at ${redis.url} \\(KEEL_REMOTE_QUEUE\\) answers; 0 jobs waiting for a worker$`,
          "m",
        ),
      );
    }, 60_000);

    it("a job that is not a Keel job is refused by the worker and fails in the queue with the reason", async () => {
      const { Queue } = await import("bullmq");
      const queue = new Queue(QUEUE, { connection: { url: redis.url } });
      try {
        const job = await queue.add("agent", { hello: "world" }, { jobId: "not-a-keel-job", attempts: 1 });
        let state = await queue.getJobState(String(job.id));
        for (let i = 0; i < 300 && state !== "failed"; i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          state = await queue.getJobState(String(job.id));
        }
        expect(state).toBe("failed");
        const failed = await queue.getJob(String(job.id));
        expect(failed?.failedReason).toContain("the job is not a Keel remote agent job");
      } finally {
        await queue.close();
      }
    }, 60_000);

    /** A worker started again under the name of one that ended, so the tests after it have two. */
    async function replaceWorker(gone: WorkerProcess): Promise<WorkerProcess> {
      await gone.stop();
      const again = startWorkerProcess(world.root, {
        name: gone.name,
        queueUrl: redis.url,
        queueName: QUEUE,
        modelUrl: server.url,
      });
      workers = [...workers.filter((candidate) => candidate !== gone), again];
      await again.ready;
      return again;
    }

    // A worker stopped mid-job exits as a process that signal stopped (130, 143, 129), whether it let its
    // job finish (the first Ctrl-C) or stopped it (a second Ctrl-C, SIGTERM, SIGHUP).
    it.each([
      {
        signals: ["SIGINT"] as const,
        exit: 130,
        logged: "stopping: waiting for 1 running job(s) to finish",
        finishes: true,
      },
      {
        signals: ["SIGINT", "SIGINT"] as const,
        exit: 130,
        logged: "stopping 1 running job(s) now (SIGINT)",
        finishes: false,
      },
      {
        signals: ["SIGTERM"] as const,
        exit: 143,
        logged: "stopping 1 running job(s) now (SIGTERM)",
        finishes: false,
      },
      {
        signals: ["SIGHUP"] as const,
        exit: 129,
        logged: "stopping 1 running job(s) now (SIGHUP)",
        finishes: false,
      },
    ])(
      "a worker sent $signals mid-job exits $exit; its job finishes: $finishes; the parent is told",
      async ({ signals, exit, logged, finishes }) => {
        // Bracketed: one case's prompt is never part of another's ([SIGINT] in [SIGINT SIGINT]).
        const key = `[${signals.join(" ")}]`;
        let victim: WorkerProcess | undefined;
        routes.push(
          {
            name: `parent-shutdown-${key}`,
            match: byPrompt(`PARENT: worker gets ${key}`),
            turns: [
              {
                blocks: [
                  toolUse("Agent", {
                    description: "Shutdown",
                    prompt: `REMOTE TASK: until ${key}`,
                    isolation: "remote",
                  }),
                ],
              },
              (request) => ({
                blocks: [
                  toolUse("TaskOutput", { task_id: agentIdOf(request), block: true, timeout: 120_000 }),
                ],
              }),
              { blocks: [text("PARENT SAW THE SHUTDOWN")] },
            ],
          },
          {
            name: `worker-shutdown-${key}`,
            match: byPrompt(`REMOTE TASK: until ${key}`),
            turns: Array.from({ length: 600 }, (_, index) => (request: RecordedRequest) => {
              if (index === 0) {
                victim = workers.find((candidate) => worktreeOf(request).startsWith(`${candidate.dir}/`));
                signals.forEach((signal, order) => {
                  setTimeout(() => victim?.child.kill(signal), order * 300);
                });
              }
              // Let a draining worker's job go on until its log says it waits for it, then finish it.
              if (finishes && index > 0 && victim?.output().includes(logged))
                return { blocks: [text(`REPORT: finished after ${key}`)] };
              return {
                blocks: [toolUse("Read", { file_path: join(worktreeOf(request), "README.md") })],
                spreadMs: 100,
              };
            }),
          },
        );
        try {
          const result = await parentRun(`PARENT: worker gets ${key}`, ["--allow", "Agent"]);
          expect(result.code).toBe(0);
          expect(victim).toBeDefined();
          expect(await victim!.exited).toBe(exit);
          expect(victim!.output()).toContain(logged);
          const requests = script.requestsOf(`parent-shutdown-${key}`);
          const agentId = agentIdOf(requests[1]!);
          const seen = conversationText(requests[2]!);
          if (finishes) {
            expect(seen).toContain(`REPORT: finished after ${key}`);
            expect(seen).toContain(`Task ${agentId} (sub-agent) completed.`);
            expect(seen).toContain(
              `Remote agent ${agentId} ("Shutdown") completed on worker ${victim!.name}.`,
            );
          } else {
            expect(seen).toContain("Stopping: the worker was shut down");
            expect(seen).toContain("The agent did not finish (it was stopped: the worker was shut down).");
            expect(seen).toContain(`Task ${agentId} was stopped.`);
            expect(seen).toContain(`Remote agent ${agentId} ("Shutdown") stopped on worker ${victim!.name}.`);
          }
          // The job ran once, on the victim: nobody took it over.
          expect(seen).not.toContain("taken over");
          expect(readdirSync(join(victim!.dir, "jobs"))).toEqual([]);
        } finally {
          // Back to two workers for what follows, whatever happened here.
          if (victim) await replaceWorker(victim);
        }
      },
      180_000,
    );

    // Last: these kill workers.
    it("a worker killed mid-job (kill -9): the queue's stalled-job check hands the job to the other worker", async () => {
      let victim: WorkerProcess | undefined;
      const workerOf = (request: RecordedRequest) =>
        workers.find((candidate) => worktreeOf(request).startsWith(`${candidate.dir}/`));
      routes.push(
        {
          name: "parent-crash",
          match: byPrompt("PARENT: survive a crash"),
          turns: [
            {
              blocks: [
                toolUse("Agent", {
                  description: "Crash",
                  prompt: "REMOTE TASK: survive a crash",
                  isolation: "remote",
                }),
              ],
            },
            (request) => ({
              blocks: [toolUse("TaskOutput", { task_id: agentIdOf(request), block: true, timeout: 180_000 })],
            }),
            { blocks: [text("PARENT SAW THE RETRY")] },
          ],
        },
        {
          name: "worker-crash",
          match: byPrompt("REMOTE TASK: survive a crash"),
          turns: [
            (request) => {
              victim = workerOf(request);
              // The worker dies while the model is answering it.
              setTimeout(() => victim?.child.kill("SIGKILL"), 200);
              return { blocks: [text("Starting.")], hangAfterBlocks: 1 };
            },
            (request) => ({ blocks: [text(`SURVIVED on ${workerOf(request)?.name}`)] }),
          ],
        },
      );
      let replaced = false;
      try {
        const result = await parentRun("PARENT: survive a crash", ["--allow", "Agent"]);
        expect(result.code).toBe(0);
        expect(victim).toBeDefined();
        const survivor = workers.find((candidate) => candidate !== victim)!;
        const requests = script.requestsOf("parent-crash");
        const agentId = agentIdOf(requests[1]!);
        const seen = conversationText(requests[2]!);
        expect(seen).toContain(`Worker ${victim!.name} took the job (attempt 1).`);
        expect(seen).toContain(`taken over by worker ${survivor.name} (attempt 2)`);
        expect(seen).toContain(`SURVIVED on ${survivor.name}`);
        expect(seen).toContain(`Task ${agentId} (sub-agent) completed.`);
        // The killed worker left its job folder; started again, it removes it.
        expect(readdirSync(join(victim!.dir, "jobs")).length).toBe(1);
        const again = await replaceWorker(victim!);
        replaced = true;
        expect(again.output()).toContain("removed 1 job folder(s) left by an earlier run");
        expect(readdirSync(join(again.dir, "jobs"))).toEqual([]);
      } finally {
        if (victim && !replaced) await replaceWorker(victim);
      }
    }, 240_000);

    it("a job whose worker is killed twice fails, and the parent reports the queue's reason", async () => {
      const killed: string[] = [];
      routes.push(
        {
          name: "parent-crash-twice",
          match: byPrompt("PARENT: crash twice"),
          turns: [
            {
              blocks: [
                toolUse("Agent", {
                  description: "Crash twice",
                  prompt: "REMOTE TASK: crash twice",
                  isolation: "remote",
                }),
              ],
            },
            (request) => ({
              blocks: [toolUse("TaskOutput", { task_id: agentIdOf(request), block: true, timeout: 180_000 })],
            }),
            { blocks: [text("PARENT SAW THE FAILURE")] },
          ],
        },
        {
          name: "worker-crash-twice",
          match: byPrompt("REMOTE TASK: crash twice"),
          turns: [1, 2].map((round) => (request: RecordedRequest) => {
            const victim = workers.find((candidate) => worktreeOf(request).startsWith(`${candidate.dir}/`));
            killed.push(victim?.name ?? "?");
            setTimeout(() => {
              victim?.child.kill("SIGKILL");
              // With both gone, a new worker's stalled-job check finds the job lost a second time.
              if (round === 2)
                workers.push(
                  startWorkerProcess(world.root, {
                    name: "wC",
                    queueUrl: redis.url,
                    queueName: QUEUE,
                    modelUrl: server.url,
                  }),
                );
            }, 200);
            return { blocks: [text("Starting.")], hangAfterBlocks: 1 };
          }),
        },
      );
      const result = await parentRun("PARENT: crash twice", ["--allow", "Agent"]);
      expect(result.code).toBe(0);
      expect(killed).toHaveLength(2);
      expect(new Set(killed).size).toBe(2);
      const requests = script.requestsOf("parent-crash-twice");
      const agentId = agentIdOf(requests[1]!);
      const seen = conversationText(requests[2]!);
      expect(seen).toContain(`Task ${agentId} (sub-agent) failed: the queue reports the job failed:`);
      expect(seen).toMatch(/stalled more than allowable limit/);
      expect(script.requestsOf("worker-crash-twice")).toHaveLength(2);
    }, 240_000);
  },
);

describe("keel worker: setup and mistakes", () => {
  const run = (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const world = keelWorld();
    return runKeel(["worker", ...args], { ...world, env: { ...world.env, ...env } });
  };

  it("--help explains the setup: queue, concurrency, folders, credentials, failures", async () => {
    const result = await run(["--help"]);
    expect(result.code).toBe(0);
    for (const words of [
      "--queue <redis-url>",
      "KEEL_REMOTE_QUEUE",
      "agents.remote.queue",
      "--concurrency <n>",
      "--dir <folder>",
      "--max-repos <n>",
      "ANTHROPIC_API_KEY",
      "Jobs never carry keys",
      "ssh keys or credential helper",
      "managed settings",
      "--lock-seconds",
    ])
      expect(result.stdout).toContain(words);
  });

  it("without a queue: exit 2 and what to set", async () => {
    const result = await run([]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Remote agents need a job queue");
    expect(result.stderr).toContain("--queue redis://host:6379");
  });

  it("an unreachable queue: exit 2 at once, naming it", async () => {
    const port = await freePort();
    const result = await run(["--queue", `redis://127.0.0.1:${port}`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `keel: Could not reach the remote-agent queue at redis://127.0.0.1:${port} (--queue): connection refused (nothing listens on that port). Check that Redis runs there and that the URL is right.\n`,
    );
  });

  it("a bad concurrency: a usage error", async () => {
    const result = await run(["--queue", "redis://127.0.0.1:1", "--concurrency", "0"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("expected a positive whole number");
  });
});
