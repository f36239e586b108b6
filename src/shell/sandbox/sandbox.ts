// The optional OS sandbox for shell commands, on @anthropic-ai/sandbox-runtime (bubblewrap + proxies
// on Linux, sandbox-exec on macOS): writes only inside the working dirs and temp, network only to
// allowed domains. Asked for and unable to start means refuse, never run unsandboxed.
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { SandboxRuntimeConfig } from "@anthropic-ai/sandbox-runtime";
import { listRules } from "../../permissions/matchers.ts";
import {
  compilePathRule,
  PATH_RULE_NAMES_BY_ACCESS,
  validatePathRuleContent,
} from "../../permissions/pathRules.ts";
import { resolveSymlinks } from "../../permissions/paths.ts";
import { type ToolPermissionContext, workingDirectories } from "../../tool/context.ts";
import { ToolError } from "../../tool/errors.ts";
import type { CommandLauncher } from "../run/exec.ts";
import { globRoot } from "./sandboxFingerprint.ts";
import { sandboxStarted, sandboxStopped } from "./sandboxLifecycle.ts";
import {
  environmentKey,
  forgetTemplates,
  mountPointsToCreate,
  removePlaceholder,
  type TemplatedCommand,
  type TemplateSource,
  templatedCommand,
} from "./sandboxTemplates.ts";

type SandboxRuntime = typeof import("@anthropic-ai/sandbox-runtime");

const requireLazily = createRequire(import.meta.url);
let loaded: { runtime: SandboxRuntime; rgPath: string } | undefined;

/**
 * The sandbox runtime (and the rg it searches with), loaded on first use: it pulls in proxies and
 * node-forge, about 90 ms at startup that sessions which never sandbox a command should not pay.
 * Synchronous (require of ES modules) because the availability check is.
 */
function sandboxRuntime(): {
  SandboxManager: SandboxRuntime["SandboxManager"];
  runtime: SandboxRuntime;
  rgPath: string;
} {
  loaded ??= {
    runtime: requireLazily("@anthropic-ai/sandbox-runtime") as SandboxRuntime,
    rgPath: (requireLazily("@vscode/ripgrep") as typeof import("@vscode/ripgrep")).rgPath,
  };
  return { SandboxManager: loaded.runtime.SandboxManager, runtime: loaded.runtime, rgPath: loaded.rgPath };
}

export interface SandboxPolicy {
  /** What the session's Read deny rules cover (globs the runtime expands when it wraps a command). */
  denyRead: string[];
  allowWrite: string[];
  denyWrite: string[];
  allowedDomains: string[];
  deniedDomains: string[];
}

/** Folders and files inside a working dir that a sandboxed command must not change (its own rules, hooks). */
const PROTECTED_IN_WORKING_DIRS = [
  ".keel",
  ".claude",
  ".git/hooks",
  ".git/config",
  ".mcp.json",
  ".gitmodules",
];

/** Network access follows the session's `WebFetch(domain:host)` rules. */
function domainsFromRules(context: ToolPermissionContext, behavior: "allow" | "deny"): string[] {
  const domains = new Set<string>();
  for (const rule of listRules(context, behavior)) {
    const content = rule.value.ruleContent;
    if (rule.value.toolName === "WebFetch" && content?.startsWith("domain:")) {
      const host = content.slice("domain:".length).trim();
      if (host) domains.add(host);
    }
  }
  return [...domains].sort();
}

/**
 * The session's Read deny rules (`names` Read) or Edit deny rules as sandbox paths, so a program the
 * analyzer cannot see into (or a hard link, which no path check can tell) still cannot reach them.
 * Reads take globs; writes only fixed paths (bubblewrap binds what exists), so a wildcard Edit deny
 * rule is left to the analyzer.
 */
function pathsFromDenyRules(context: ToolPermissionContext, access: "read" | "write"): string[] {
  const paths = new Set<string>();
  for (const rule of listRules(context, "deny")) {
    const name = rule.value.toolName;
    const content = rule.value.ruleContent;
    if (content === undefined || validatePathRuleContent(content) !== undefined) continue;
    if (!PATH_RULE_NAMES_BY_ACCESS[access].includes(name)) continue;
    const compiled = compilePathRule(content, rule.source, context);
    const body = compiled.pattern.replace(/^\//, "").replace(/\/$/, "");
    const roots = compiled.anyDepth ? [compiled.root, ...workingDirectories(context)] : [compiled.root];
    for (const root of withResolvedForms(roots)) {
      const path = compiled.anyDepth ? join(root, "**", body) : join(root, body === "**" ? "" : body);
      if (access === "read") paths.add(path);
      else if (!/[*?[]/.test(path.replace(/\/\*\*$/, ""))) paths.add(path.replace(/\/\*\*$/, ""));
    }
  }
  return [...paths].sort();
}

function withResolvedForms(paths: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const path of paths) {
    forms.add(resolve(path));
    forms.add(resolveSymlinks(resolve(path)));
  }
  return [...forms];
}

/**
 * What the sandbox lets a command of this session do: write in the working dirs, temp and
 * `sandbox.filesystem.allowWrite`, never in their rule and hook files nor `denyWrite` (deny wins);
 * reach the hosts of WebFetch(domain:...) allow rules and `sandbox.network.allowedDomains`.
 */
export function sandboxPolicy(context: ToolPermissionContext): SandboxPolicy {
  const dirs = withResolvedForms(workingDirectories(context));
  const settings = context.sandbox;
  return {
    denyRead: pathsFromDenyRules(context, "read"),
    allowWrite: [
      ...dirs,
      ...withResolvedForms([tmpdir(), "/tmp"]),
      ...withResolvedForms(settings.allowWrite ?? []),
    ],
    denyWrite: [
      ...dirs.flatMap((dir) => PROTECTED_IN_WORKING_DIRS.map((name) => join(dir, name))),
      ...withResolvedForms(settings.denyWrite ?? []),
      ...pathsFromDenyRules(context, "write"),
    ],
    allowedDomains: [
      ...new Set([...domainsFromRules(context, "allow"), ...(settings.allowedDomains ?? [])]),
    ].sort(),
    deniedDomains: domainsFromRules(context, "deny"),
  };
}

// The runtime is a process-wide singleton: started once, its network lists swapped live per call.
let starting: Promise<void> | undefined;

function baseConfig(policy: SandboxPolicy): SandboxRuntimeConfig {
  return {
    ripgrep: { command: sandboxRuntime().rgPath },
    network: { allowedDomains: policy.allowedDomains, deniedDomains: policy.deniedDomains },
    filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
  };
}

function unavailable(reason: string): ToolError {
  return new ToolError(
    "sandbox_unavailable",
    `The OS sandbox is enabled for this session but cannot start: ${reason}. The command was not run. ` +
      "Ask the user to install what is missing (on Debian/Ubuntu: apt-get install bubblewrap socat) or to turn the sandbox off.",
  );
}

/** PATH values under which every dependency was found; the check spawns `which` and blocks, so it is kept. */
const availableUnder = new Set<string>();

/** Why the sandbox cannot run here, or undefined when it can. Does not start anything. */
export function sandboxUnavailableReason(): string | undefined {
  const path = process.env.PATH ?? "";
  if (availableUnder.has(path)) return undefined;
  const { SandboxManager, rgPath } = sandboxRuntime();
  if (!SandboxManager.isSupportedPlatform()) return `platform ${process.platform} is not supported`;
  const { errors } = SandboxManager.checkDependencies({ command: rgPath });
  if (errors.length > 0) return errors.join("; ");
  availableUnder.add(path);
  return undefined;
}

async function ensureStarted(policy: SandboxPolicy): Promise<void> {
  const reason = sandboxUnavailableReason();
  if (reason) throw unavailable(reason);
  const { SandboxManager } = sandboxRuntime();
  if (!starting) {
    starting = SandboxManager.initialize(baseConfig(policy)).catch(async (error: unknown) => {
      starting = undefined;
      sandboxStopped();
      forgetTemplates();
      await SandboxManager.reset().catch(() => {});
      throw unavailable(error instanceof Error ? error.message : String(error));
    });
    // Its proxies keep Node running: the command line stops them when its command is done.
    sandboxStarted(stopSandbox);
  }
  await starting;
  const current = SandboxManager.getConfig();
  const wanted = baseConfig(policy).network;
  if (
    current &&
    (current.network.allowedDomains.join("\n") !== wanted.allowedDomains.join("\n") ||
      current.network.deniedDomains.join("\n") !== wanted.deniedDomains.join("\n"))
  ) {
    SandboxManager.updateConfig({ ...current, network: { ...current.network, ...wanted } });
  }
}

function filesystemOf(policy: SandboxPolicy): NonNullable<SandboxRuntimeConfig["filesystem"]> {
  return { denyRead: policy.denyRead, allowWrite: policy.allowWrite, denyWrite: policy.denyWrite };
}

function networkOf(policy: SandboxPolicy): SandboxRuntimeConfig["network"] {
  return { allowedDomains: policy.allowedDomains, deniedDomains: policy.deniedDomains };
}

/** The names the runtime always protects in the process's cwd (its mandatory deny list), to watch. */
const RUNTIME_PROTECTED_NAMES = [
  ".gitconfig",
  ".gitmodules",
  ".bashrc",
  ".bash_profile",
  ".zshrc",
  ".zprofile",
  ".profile",
  ".ripgreprc",
  ".mcp.json",
  ".vscode",
  ".idea",
  ".claude/commands",
  ".claude/agents",
  ".git/hooks",
  ".git/config",
];

/** `dir/**` reads as `dir` (the runtime strips it); what is left with a wildcard is expanded on disk. */
const withoutTrailingGlobstar = (path: string) => path.replace(/\/\*\*$/, "");
const hasWildcard = (path: string) => /[*?[\]{}]/.test(path);

/** What a template for this policy depends on, and how to wrap and release it (Linux). */
function templateSource(policy: SandboxPolicy): TemplateSource {
  const { SandboxManager, runtime } = sandboxRuntime();
  const reads = policy.denyRead.map(withoutTrailingGlobstar);
  const cwd = process.cwd();
  return {
    key: JSON.stringify([policy, environmentKey()]),
    chains: [
      ...policy.allowWrite,
      ...policy.denyWrite,
      ...reads.filter((path) => !hasWildcard(path)),
      ...RUNTIME_PROTECTED_NAMES.map((name) => join(cwd, name)),
      ...runtime.getDefaultWritePaths(),
    ],
    globRoots: reads.flatMap((path) => globRoot(path) ?? []),
    wrap: (command) =>
      SandboxManager.wrapWithSandboxArgv(
        command,
        "bash",
        { filesystem: filesystemOf(policy), network: networkOf(policy) },
        undefined,
        cwd,
      ),
    releaseWrap: () => SandboxManager.cleanupAfterCommand(),
  };
}

/** One wrap per command, as the runtime documents it (platforms without templates). */
function perCommandLauncher(policy: SandboxPolicy): CommandLauncher {
  const { SandboxManager } = sandboxRuntime();
  let wraps = 0;
  return {
    prepare: async (script, cwd) => {
      const wrapped = await SandboxManager.wrapWithSandboxArgv(
        script,
        "bash",
        { filesystem: filesystemOf(policy), network: networkOf(policy) },
        undefined,
        cwd,
      );
      wraps++;
      return wrapped;
    },
    // Removes the mount-point placeholders bubblewrap leaves on the host for denied paths.
    release: () => {
      for (; wraps > 0; wraps--) SandboxManager.cleanupAfterCommand();
    },
  };
}

/** A launcher that runs commands inside the sandbox; throws `sandbox_unavailable` when it cannot. */
export async function createSandboxLauncher(context: ToolPermissionContext): Promise<CommandLauncher> {
  const policy = sandboxPolicy(context);
  await ensureStarted(policy);
  const launcher = process.platform === "linux" ? templateLauncher(policy) : perCommandLauncher(policy);
  return {
    prepare: async (script, cwd) => {
      try {
        return await launcher.prepare(script, cwd);
      } catch (error) {
        throw unavailable(error instanceof Error ? error.message : String(error));
      }
    },
    release: () => launcher.release?.(),
  };
}

/**
 * The runtime's own command line for `script` (one wrap, no template): what a sandboxed command
 * costs at the least, for benchmarks. `afterRun` removes the mount points a run left on the host
 * (as the runtime's cleanup after each command would); `release` once done with it.
 */
export async function bareSandboxCommand(
  context: ToolPermissionContext,
  script: string,
  cwd: string,
): Promise<{ argv: string[]; env: NodeJS.ProcessEnv; afterRun: () => void; release: () => void }> {
  const policy = sandboxPolicy(context);
  await ensureStarted(policy);
  const launcher = perCommandLauncher(policy);
  const { argv, env } = await launcher.prepare(script, cwd);
  const mountPoints = mountPointsToCreate(argv);
  return {
    argv,
    env,
    afterRun: () => {
      for (const path of mountPoints) removePlaceholder(path);
    },
    release: () => launcher.release?.(),
  };
}

/** Commands through a reused wrap (sandboxTemplates.ts). */
function templateLauncher(policy: SandboxPolicy): CommandLauncher {
  const source = templateSource(policy);
  const commands: TemplatedCommand[] = [];
  return {
    prepare: async (script) => {
      const command = await templatedCommand(source, script);
      commands.push(command);
      return { argv: command.argv, env: command.env };
    },
    release: () => {
      for (const command of commands.splice(0)) command.release();
    },
  };
}

/** Stops the sandbox's proxies (end of the process or of the last sandboxed session). */
export async function stopSandbox(): Promise<void> {
  if (!starting) return;
  const started = starting;
  starting = undefined;
  sandboxStopped();
  forgetTemplates();
  // A start still under way is waited for, so that what it opens is closed too.
  await started.catch(() => {});
  await sandboxRuntime().SandboxManager.reset();
}
