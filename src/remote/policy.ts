// The policy a remote agent runs under on a worker: never less restrictive than the job's (the parent's
// rules and mode) nor than the worker machine's own managed settings. Spelt out, for each part:
//   deny rules  both sides' (a call either side denies is denied)
//   ask rules   both sides' (a call either side asks about is asked about)
//   allow rules the job's, taken as a session on the worker takes a user's rules: not at all when the
//               worker allows only managed rules (allowManagedPermissionRulesOnly); never the worker's
//               own managed allow rules, which would let the agent skip a question the parent asks
//   mode        the stricter of the two (table below); bypassPermissions becomes default where the
//               worker disables it
//   asking      back to the parent as a question when the parent has someone to ask, unless either side
//               is in dontAsk; otherwise refused on the worker, as in `keel -p`
import { type PermissionMode, RULE_SOURCES, type RuleSource } from "../permissions/types.ts";
import { mergeSettings, type SourceSettings } from "../settings/merge.ts";
import {
  type DeepReadonly,
  getEmptyToolPermissionContext,
  type RulesBySource,
  type SandboxPolicySettings,
  type ToolPermissionContext,
  updatePermissionContext,
} from "../tool/context.ts";
import type { JobPolicy } from "./job.ts";

/** The worker machine's own managed settings, as far as a remote agent's policy goes. */
export interface WorkerManagedPolicy {
  /** `permissions.defaultMode` of the managed settings; undefined: no opinion. */
  mode?: PermissionMode;
  allow: readonly string[];
  deny: readonly string[];
  ask: readonly string[];
  /** allowManagedPermissionRulesOnly: only managed rules may allow. */
  managedRulesOnly: boolean;
  /** disableBypassPermissionsMode: "disable". */
  bypassDisabled: boolean;
}

export interface RemotePolicy {
  mode: PermissionMode;
  /** Approvals that need a person go back to the parent; false: they are refused on the worker. */
  askParent: boolean;
  allow: RulesBySource;
  deny: RulesBySource;
  ask: RulesBySource;
  /** Where the policy differs from the job's, one line each, for the job's log and report. */
  notes: string[];
}

/**
 * How much a mode lets through without asking, least first. acceptEdits and auto share a level: each
 * allows something the other asks about. dontAsk is default with every question refused.
 */
const LEVEL: Record<Exclude<PermissionMode, "dontAsk">, number> = {
  bypassPermissions: 0,
  acceptEdits: 1,
  auto: 1,
  default: 2,
  plan: 3,
};

export interface StricterMode {
  mode: PermissionMode;
  /** One side is in dontAsk: nothing may be asked, whatever the mode. */
  refuseAsks: boolean;
}

/** The stricter of two modes (undefined: no opinion); two that each loosen something else meet at default. */
export function stricterMode(a: PermissionMode | undefined, b: PermissionMode | undefined): StricterMode {
  const refuseAsks = a === "dontAsk" || b === "dontAsk";
  const plain = (mode: PermissionMode | undefined) => (mode === "dontAsk" ? "default" : mode);
  const x = plain(a);
  const y = plain(b);
  let mode: Exclude<PermissionMode, "dontAsk">;
  if (x === undefined || y === undefined) mode = x ?? y ?? "default";
  else if (x === y) mode = x;
  else if (LEVEL[x] === LEVEL[y]) mode = "default";
  else mode = LEVEL[x] > LEVEL[y] ? x : y;
  return { mode: refuseAsks && mode === "default" ? "dontAsk" : mode, refuseAsks };
}

function withPolicy(rules: RulesBySource, policy: readonly string[]): RulesBySource {
  if (policy.length === 0) return { ...rules };
  return {
    ...rules,
    policy: [...(rules.policy ?? []), ...policy.filter((rule) => !rules.policy?.includes(rule))],
  };
}

export function mergeRemotePolicy(job: JobPolicy, worker: WorkerManagedPolicy): RemotePolicy {
  const notes: string[] = [];
  let { mode, refuseAsks } = stricterMode(job.mode, worker.mode);
  if (mode !== job.mode)
    notes.push(
      `runs in ${mode} mode, the stricter of the job's ${job.mode} and this worker's managed ${worker.mode ?? "(none)"}`,
    );
  if (mode === "bypassPermissions" && worker.bypassDisabled) {
    mode = "default";
    notes.push("bypassPermissions is disabled by this worker's managed settings: runs in default mode");
  }
  const allow = worker.managedRulesOnly ? {} : { ...job.allow };
  const dropped = Object.values(job.allow).reduce((count, rules) => count + (rules?.length ?? 0), 0);
  if (worker.managedRulesOnly && dropped > 0)
    notes.push(
      `the job's ${dropped} allow rule${dropped === 1 ? "" : "s"} do not apply: this worker allows only its managed rules`,
    );
  if (worker.deny.length > 0)
    notes.push(`this worker's managed deny rules apply too: ${worker.deny.join(", ")}`);
  if (worker.ask.length > 0)
    notes.push(`this worker's managed ask rules apply too: ${worker.ask.join(", ")}`);
  const askParent = job.canAsk && !refuseAsks;
  if (!askParent)
    notes.push(
      refuseAsks
        ? "calls that need approval are refused (dontAsk)"
        : "calls that need approval are refused: the parent session has nobody to ask",
    );
  return {
    mode,
    askParent,
    allow,
    deny: withPolicy(job.deny, worker.deny),
    ask: withPolicy(job.ask, worker.ask),
    notes,
  };
}

/** The worker's managed settings (policy sources, highest first) reduced to what the merge reads. */
export function workerManagedPolicy(
  policySources: readonly SourceSettings[],
  anchors: { projectRoot: string; home: string },
): WorkerManagedPolicy {
  const managed = policySources.filter((entry) => entry.source === "policy");
  const merged = mergeSettings(managed, anchors);
  return {
    ...(merged.defaultMode ? { mode: merged.defaultMode.mode } : {}),
    allow: [...(merged.allow.policy ?? [])],
    deny: [...(merged.deny.policy ?? [])],
    ask: [...(merged.ask.policy ?? [])],
    managedRulesOnly: managed.some((entry) => entry.settings.allowManagedPermissionRulesOnly === true),
    bypassDisabled: merged.bypassDisabledBy !== undefined,
  };
}

/**
 * The worker-side session policy for one job: the merged rules and mode over the job's worktree. Rules
 * keep the source they had in the parent's session; `/relative` path rules of project sources resolve
 * in the worktree (the same commit), of user sources in the worker's home, of policy at `/`.
 */
export function remotePermissionContext(
  policy: RemotePolicy,
  anchors: { projectRoot: string; home: string; sandbox?: DeepReadonly<SandboxPolicySettings> },
): ToolPermissionContext {
  const ruleRoots: Partial<Record<RuleSource, string>> = {};
  for (const source of RULE_SOURCES)
    ruleRoots[source] = source === "user" ? anchors.home : source === "policy" ? "/" : anchors.projectRoot;
  const base = getEmptyToolPermissionContext(anchors.projectRoot);
  return updatePermissionContext(base, {
    mode: policy.mode,
    alwaysAllowRules: policy.allow,
    alwaysDenyRules: policy.deny,
    alwaysAskRules: policy.ask,
    ruleRoots,
    // Whether bypass was allowed has been settled by the merge.
    isBypassPermissionsModeAvailable: policy.mode === "bypassPermissions",
    ...(anchors.sandbox ? { sandbox: structuredClone(anchors.sandbox) as SandboxPolicySettings } : {}),
  });
}
