// What a remote agent job carries, as a schema both sides share. The worker takes jobs from anyone who
// can write to the queue, so it checks every job against this schema (and the repository URL against
// the transports git may use) before touching git or a model; a job that fails is refused, not guessed.
// A job never carries an API key or an environment: the worker uses its own.
import * as z from "zod";
import { PERMISSION_MODES, RULE_SOURCES } from "../permissions/types.ts";

export const JOB_VERSION = 1;

const ruleList = z.array(z.string().min(1).max(4_096)).max(1_000);
const rulesBySource = z.partialRecord(z.enum(RULE_SOURCES), ruleList);

export const AGENT_ID = /^agent_[0-9a-f]{8}$/;
const COMMIT = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
/** Path parts git accepts in a ref: no leading dot, no `..`, no `.lock` ending (checked below). */
const REF = /^refs\/(?:[A-Za-z0-9_-][A-Za-z0-9_.-]*\/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;
const BRANCH = /^keel\/[A-Za-z0-9_-][A-Za-z0-9_.-]{0,79}$/;
const gitRefName = (pattern: RegExp, max: number) =>
  z
    .string()
    .max(max)
    .regex(pattern)
    .refine((ref) => !ref.includes("..") && !ref.endsWith(".lock"), "not a ref name git accepts");

export const JobPolicySchema = z.strictObject({
  /** The parent's mode, already made stricter by the agent type's own mode. */
  mode: z.enum(PERMISSION_MODES),
  allow: rulesBySource,
  deny: rulesBySource,
  ask: rulesBySource,
  /** The parent has someone to ask: approvals go back to it as questions, else they are refused. */
  canAsk: z.boolean(),
});

export const RemoteJobSchema = z.strictObject({
  version: z.literal(JOB_VERSION),
  agentId: z.string().regex(AGENT_ID),
  description: z.string().min(1).max(500),
  prompt: z.string().min(1).max(200_000),
  agentType: z.strictObject({
    name: z.string().min(1).max(100),
    instructions: z.string().max(100_000),
    tools: z.union([z.literal("*"), z.array(z.string().min(1).max(200)).max(500)]),
    disallowedTools: z.array(z.string().min(1).max(200)).max(500),
    maxTurns: z.number().int().positive().max(10_000).optional(),
  }),
  /** The parent's model choice. The worker uses the name with its own provider setup and key. */
  model: z.strictObject({
    name: z.string().min(1).max(200),
    provider: z.enum(["anthropic", "openai"]),
    /** Where the parent's requests go: for the report only, never used by the worker. */
    baseURL: z.string().max(2_000).optional(),
  }),
  repository: z.strictObject({
    url: z.string().min(1).max(2_000),
    commit: z.string().regex(COMMIT),
    /** A ref on the remote that holds the commit (the parent pushed it, or a branch already had it). */
    ref: gitRefName(REF, 300),
    /** The branch the worker pushes the agent's commits to. */
    branch: gitRefName(BRANCH, 100),
  }),
  policy: JobPolicySchema,
  parent: z.strictObject({ sessionId: z.string().min(1).max(200), host: z.string().max(300) }),
  createdAt: z.string().max(100),
});

export type RemoteJob = z.infer<typeof RemoteJobSchema>;
export type JobPolicy = z.infer<typeof JobPolicySchema>;

/** A job's data as the worker got it: the job, or what is wrong with it (for the failed report). */
export function parseRemoteJob(data: unknown): { ok: true; job: RemoteJob } | { ok: false; problem: string } {
  const parsed = RemoteJobSchema.safeParse(data);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first?.path.length ? first.path.join(".") : "the job";
    return { ok: false, problem: `the job is not a Keel remote agent job (${where}: ${first?.message})` };
  }
  const problem = repositoryUrlProblem(parsed.data.repository.url);
  if (problem) return { ok: false, problem };
  return { ok: true, job: parsed.data };
}

const URL_SCHEMES = /^(?:https?|ssh|git|file):\/\/[^\s]+$/i;
/** `user@host:path` and `host:path`, git's scp-like form (no `::`, no scheme). */
const SCP_LIKE = /^(?:[A-Za-z0-9._-]+@)?[A-Za-z0-9.-]+:(?!\/\/)[^\s:][^\s]*$/;

/**
 * Undefined for a URL git may fetch from and push to with no program of the URL's choosing: http(s),
 * ssh, git, file, scp-like and absolute paths. Transport helpers (`ext::`, `fd::`), option-like words
 * and control characters are refused.
 */
export function repositoryUrlProblem(url: string): string | undefined {
  const refuse = (why: string) =>
    `the repository URL "${url.slice(0, 200)}" is refused: ${why}. Use an https://, ssh://, git://, file:// or user@host:path URL.`;
  if (/[\0-\x1f\x7f]/.test(url)) return refuse("it holds control characters");
  if (url.startsWith("-")) return refuse("it starts with '-' (git would read it as an option)");
  if (url.includes("::")) return refuse("git transport helpers (ext::, fd::) run programs");
  if (URL_SCHEMES.test(url) || SCP_LIKE.test(url) || (url.startsWith("/") && !/\s/.test(url)))
    return undefined;
  return refuse("git would not read it as a remote repository");
}

/** The branch a remote agent's work is pushed to. */
export function remoteBranchName(agentId: string): string {
  return `keel/${agentId}`;
}

/** The ref the parent pushes its commit to when no branch on the remote holds it. */
export function baseRefName(agentId: string): string {
  return `refs/keel/base/${agentId}`;
}
