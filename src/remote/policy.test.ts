// The remote policy merge: the mode table, the rule sets, and, through the real decision engine with
// the real tools, that the merged policy never lets through what the job's policy or the worker's
// managed policy alone would stop.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decidePermission } from "../permissions/engine.ts";
import type { PermissionMode } from "../permissions/types.ts";
import { initBashParser } from "../shell/analyze/grammar/parse.ts";
import { createToolUseContext } from "../tool/createContext.ts";
import type { Tool } from "../tool/Tool.ts";
import { builtinTools } from "../tools/builtinTools.ts";
import type { JobPolicy } from "./job.ts";
import {
  mergeRemotePolicy,
  type RemotePolicy,
  remotePermissionContext,
  stricterMode,
  type WorkerManagedPolicy,
  workerManagedPolicy,
} from "./policy.ts";

const noWorkerPolicy: WorkerManagedPolicy = {
  allow: [],
  deny: [],
  ask: [],
  managedRulesOnly: false,
  bypassDisabled: false,
};

function job(patch: Partial<JobPolicy> = {}): JobPolicy {
  return { mode: "default", allow: {}, deny: {}, ask: {}, canAsk: true, ...patch };
}

describe("stricterMode", () => {
  it.each<[PermissionMode | undefined, PermissionMode | undefined, PermissionMode, boolean]>([
    ["acceptEdits", undefined, "acceptEdits", false],
    [undefined, "plan", "plan", false],
    [undefined, undefined, "default", false],
    ["bypassPermissions", "acceptEdits", "acceptEdits", false],
    ["acceptEdits", "bypassPermissions", "acceptEdits", false],
    ["bypassPermissions", "auto", "auto", false],
    ["acceptEdits", "default", "default", false],
    ["auto", "default", "default", false],
    // Each loosens what the other asks about: neither loosening holds.
    ["acceptEdits", "auto", "default", false],
    ["auto", "acceptEdits", "default", false],
    ["default", "plan", "plan", false],
    ["plan", "bypassPermissions", "plan", false],
    ["dontAsk", "acceptEdits", "dontAsk", true],
    ["bypassPermissions", "dontAsk", "dontAsk", true],
    ["dontAsk", undefined, "dontAsk", true],
    // plan refuses writes, dontAsk refuses questions: plan with every question refused.
    ["dontAsk", "plan", "plan", true],
    ["plan", "dontAsk", "plan", true],
    ["dontAsk", "dontAsk", "dontAsk", true],
  ])("%s and %s -> %s (questions refused: %s)", (a, b, mode, refuseAsks) => {
    expect(stricterMode(a, b)).toEqual({ mode, refuseAsks });
  });
});

describe("mergeRemotePolicy", () => {
  it("deny and ask rules of both sides; allow rules of the job", () => {
    const merged = mergeRemotePolicy(
      job({
        allow: { project: ["Bash(npm test:*)"], cliArg: ["Edit"] },
        deny: { user: ["Bash(curl:*)"] },
        ask: { project: ["Bash(git push:*)"] },
      }),
      { ...noWorkerPolicy, allow: ["Bash(rm:*)"], deny: ["Bash(rm:*)", "WebFetch"], ask: ["Write(/etc/**)"] },
    );
    expect(merged.allow).toEqual({ project: ["Bash(npm test:*)"], cliArg: ["Edit"] });
    expect(merged.deny).toEqual({ user: ["Bash(curl:*)"], policy: ["Bash(rm:*)", "WebFetch"] });
    expect(merged.ask).toEqual({ project: ["Bash(git push:*)"], policy: ["Write(/etc/**)"] });
    expect(merged.askParent).toBe(true);
  });

  it("a worker that allows only managed rules drops the job's allow rules (and says so), keeps its deny rules", () => {
    const merged = mergeRemotePolicy(
      job({
        allow: { project: ["Bash(npm test:*)"], policy: ["Read"] },
        deny: { project: ["Bash(curl:*)"] },
      }),
      { ...noWorkerPolicy, managedRulesOnly: true },
    );
    expect(merged.allow).toEqual({});
    expect(merged.deny).toEqual({ project: ["Bash(curl:*)"] });
    expect(merged.notes.join("\n")).toContain("the job's 2 allow rules do not apply");
  });

  it.each<[string, Partial<JobPolicy>, Partial<WorkerManagedPolicy>, PermissionMode, boolean]>([
    ["the job's mode when the worker has none", { mode: "acceptEdits" }, {}, "acceptEdits", true],
    ["the worker's stricter mode", { mode: "acceptEdits" }, { mode: "plan" }, "plan", true],
    ["the job's stricter mode", { mode: "plan" }, { mode: "acceptEdits" }, "plan", true],
    [
      "bypass where the worker disables it",
      { mode: "bypassPermissions" },
      { bypassDisabled: true },
      "default",
      true,
    ],
    ["bypass where the worker allows it", { mode: "bypassPermissions" }, {}, "bypassPermissions", true],
    ["no questions when the parent cannot answer", { canAsk: false }, {}, "default", false],
    [
      "no questions when the worker is in dontAsk",
      { mode: "acceptEdits" },
      { mode: "dontAsk" },
      "dontAsk",
      false,
    ],
    ["plan with no questions", { mode: "dontAsk" }, { mode: "plan" }, "plan", false],
  ])("mode: %s", (_name, jobPatch, workerPatch, mode, askParent) => {
    const merged = mergeRemotePolicy(job(jobPatch), { ...noWorkerPolicy, ...workerPatch });
    expect(merged.mode).toBe(mode);
    expect(merged.askParent).toBe(askParent);
  });

  it("reads the worker's managed settings: rules, mode, managed-only, bypass off", () => {
    const policy = workerManagedPolicy(
      [
        {
          source: "policy",
          file: "/etc/keel/managed-settings.json",
          settings: {
            permissions: {
              deny: ["Bash(rm:*)"],
              ask: ["WebFetch"],
              allow: ["Read"],
              defaultMode: "plan",
              disableBypassPermissionsMode: "disable",
            },
            allowManagedPermissionRulesOnly: true,
          },
        },
        { source: "user", settings: { permissions: { deny: ["Write"] } } },
      ],
      { projectRoot: "/w", home: "/home/w" },
    );
    expect(policy).toEqual({
      mode: "plan",
      allow: ["Read"],
      deny: ["Bash(rm:*)"],
      ask: ["WebFetch"],
      managedRulesOnly: true,
      bypassDisabled: true,
    });
  });
});

describe("the merged policy is never looser than either side (real engine, real tools)", () => {
  let root: string;
  let project: string;
  let home: string;
  const tools = builtinTools();
  const tool = (name: string) => tools.find((candidate) => candidate.name === name) as Tool;

  beforeAll(async () => {
    await initBashParser();
    root = realpathSync(mkdtempSync(join(tmpdir(), "keel-remote-policy-")));
    project = join(root, "worktree");
    home = join(root, "home");
    mkdirSync(join(project, "src"), { recursive: true });
    mkdirSync(home);
    writeFileSync(join(project, "src", "a.ts"), "export const a = 1;\n");
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const calls = () => [
    { name: "Read", input: { file_path: join(project, "src", "a.ts") } },
    { name: "Write", input: { file_path: join(project, "src", "b.ts"), content: "x" } },
    { name: "Bash", input: { command: "ls src" } },
    { name: "Bash", input: { command: "rm -f src/a.ts" } },
    { name: "Bash", input: { command: "npm test" } },
    { name: "Bash", input: { command: "curl https://example.com" } },
    { name: "WebFetch", input: { url: "https://example.com", prompt: "x" } },
  ];

  const jobs: JobPolicy[] = [
    job({ mode: "acceptEdits", allow: { cliArg: ["Bash(npm test:*)", "Bash(rm:*)"] } }),
    job({ mode: "bypassPermissions", deny: { user: ["Bash(curl:*)"] } }),
    job({ mode: "plan", allow: { project: ["Bash(npm test:*)"] } }),
    job({ mode: "default", allow: { cliArg: ["WebFetch", "Write"] }, ask: { project: ["Bash(npm:*)"] } }),
    job({ mode: "dontAsk", allow: { cliArg: ["Write"] } }),
  ];
  const workers: WorkerManagedPolicy[] = [
    noWorkerPolicy,
    { ...noWorkerPolicy, deny: ["Bash(rm:*)"], ask: ["WebFetch"] },
    { ...noWorkerPolicy, mode: "plan" },
    { ...noWorkerPolicy, mode: "acceptEdits", allow: ["Bash(curl:*)"], managedRulesOnly: true },
    { ...noWorkerPolicy, mode: "default", bypassDisabled: true, deny: ["Write(//**/b.ts)"] },
  ];

  const strictness = { allow: 0, ask: 1, deny: 2 } as const;

  async function decide(policy: RemotePolicy, call: { name: string; input: unknown }): Promise<number> {
    const permissionContext = remotePermissionContext(policy, { projectRoot: project, home });
    const context = createToolUseContext({ tools, permissionContext });
    const decision = await decidePermission(tool(call.name), call.input, context);
    // A question nobody may answer is a refusal.
    if (decision.behavior === "ask" && !policy.askParent) return strictness.deny;
    return strictness[decision.behavior];
  }

  /** The job's policy alone: the parent's own session. */
  function jobAlone(side: JobPolicy): RemotePolicy {
    return { ...side, askParent: side.canAsk && side.mode !== "dontAsk", notes: [] };
  }

  /**
   * The worker's managed policy alone: a session on the worker machine in its managed mode, with its
   * managed rules, in which the job's allow rules count as a user's rules would there (not at all
   * when the worker allows only managed rules).
   */
  function workerAlone(side: WorkerManagedPolicy, jobPolicy: JobPolicy): RemotePolicy {
    const mode = side.mode ?? "bypassPermissions";
    return {
      mode: mode === "bypassPermissions" && side.bypassDisabled ? "default" : mode,
      askParent: side.mode !== "dontAsk",
      allow: side.managedRulesOnly ? { policy: side.allow } : { ...jobPolicy.allow, policy: side.allow },
      deny: { policy: side.deny },
      ask: { policy: side.ask },
      notes: [],
    };
  }

  async function looserCalls(merge: typeof mergeRemotePolicy): Promise<string[]> {
    const looser: string[] = [];
    for (const [j, jobPolicy] of jobs.entries())
      for (const [w, worker] of workers.entries()) {
        const merged = merge(jobPolicy, worker);
        for (const call of calls()) {
          const [both, ofJob, ofWorker] = await Promise.all([
            decide(merged, call),
            decide(jobAlone(jobPolicy), call),
            decide(workerAlone(worker, jobPolicy), call),
          ]);
          if (both < Math.max(ofJob, ofWorker))
            looser.push(`job ${j} x worker ${w}: ${call.name} ${JSON.stringify(call.input)}`);
        }
      }
    return looser;
  }

  it("for every pair of policies and every call", async () => {
    expect(await looserCalls(mergeRemotePolicy)).toEqual([]);
  });

  it("the check catches a merge that keeps only the job's mode, or drops the worker's deny rules", async () => {
    const jobModeOnly: typeof mergeRemotePolicy = (j, w) => ({ ...mergeRemotePolicy(j, w), mode: j.mode });
    expect((await looserCalls(jobModeOnly)).length).toBeGreaterThan(0);
    const jobDenyOnly: typeof mergeRemotePolicy = (j, w) => ({ ...mergeRemotePolicy(j, w), deny: j.deny });
    expect((await looserCalls(jobDenyOnly)).length).toBeGreaterThan(0);
  });

  it("and it is not simply 'deny everything': the job's allowances hold where the worker has no objection", async () => {
    const merged = mergeRemotePolicy(jobs[0]!, noWorkerPolicy);
    expect(await decide(merged, { name: "Write", input: calls()[1]!.input })).toBe(strictness.allow);
    expect(await decide(merged, { name: "Bash", input: { command: "npm test" } })).toBe(strictness.allow);
    const guarded = mergeRemotePolicy(jobs[0]!, workers[1]!);
    expect(await decide(guarded, { name: "Bash", input: { command: "rm -f src/a.ts" } })).toBe(
      strictness.deny,
    );
  });
});
