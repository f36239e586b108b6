// Whether Bash calls can run confined here: Linux, with a bubblewrap on PATH that can make the
// namespaces the confinement uses. The answer is a fact of the Call (context.sandbox.confinement):
// probed once per PATH in a process (one bubblewrap start, a few milliseconds) and kept.
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

/** What a person does to get the confinement where it is missing. */
export const CONFINEMENT_INSTALL_HINT = "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)";

export type ConfinementAvailability =
  | { available: true; bwrap: string }
  | { available: false; reason: string };

/**
 * bubblewrap's arguments for a confined call with these mounts: the host's file system as it is, the
 * mounts over it, and a PID namespace of its own (every process the command starts ends with it).
 */
export function bwrapArgs(mounts: readonly string[]): string[] {
  return ["--dev-bind", "/", "/", ...mounts, "--unshare-pid", "--proc", "/proc", "--die-with-parent"];
}

/** Answers by PATH value and platform; a process sees few PATHs (the decision server one per environment). */
const answers = new Map<string, ConfinementAvailability>();
const MAX_ANSWERS = 16;

/** The first executable `name` on `path`, or undefined. */
export function findOnPath(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? "").split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}

function probe(path: string | undefined, platform: NodeJS.Platform): ConfinementAvailability {
  if (platform !== "linux")
    return {
      available: false,
      reason: `Keel confines Bash calls with bubblewrap, which runs on Linux only (this is ${platform})`,
    };
  const bwrap = findOnPath("bwrap", path);
  if (!bwrap)
    return { available: false, reason: `bubblewrap (bwrap) is not on PATH; ${CONFINEMENT_INSTALL_HINT}` };
  const run = spawnSync(bwrap, [...bwrapArgs([]), "--", "true"], {
    env: { PATH: path ?? "" },
    encoding: "utf8",
    timeout: 10_000,
    stdio: ["ignore", "ignore", "pipe"],
  });
  if (run.status === 0) return { available: true, bwrap };
  const why = run.error?.message ?? (run.stderr.trim().split("\n")[0] || `exit ${run.status ?? run.signal}`);
  return {
    available: false,
    reason: `bubblewrap cannot start here (${why}); allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or the AppArmor rule for bwrap)`,
  };
}

/**
 * What a person is told on entering a mode that approves Bash calls (bypassPermissions, acceptEdits)
 * where nothing can confine them; undefined in other modes.
 */
export function unconfinedModeNotice(mode: string, reason: string): string | undefined {
  if (mode !== "bypassPermissions" && mode !== "acceptEdits") return undefined;
  const fix = reason.includes(CONFINEMENT_INSTALL_HINT)
    ? ""
    : ` To get it on Linux, ${CONFINEMENT_INSTALL_HINT}.`;
  return `No sandbox can confine Bash calls here (${reason}), so in ${mode} mode commands whose writes Keel cannot name (inline code, build tools, scripts) still ask; allow the ones you trust with rules such as Bash(npm test:*).${fix}`;
}

/**
 * Whether calls of this policy can run confined: what the policy says, or, when it does not say
 * (nobody needed to know when it was made), the probe under the caller's PATH.
 */
export function canConfine(policy: {
  sandbox: { confinement?: boolean | undefined };
  caller: { env: { PATH?: string | undefined } };
}): boolean {
  return policy.sandbox.confinement ?? confinementAvailability(policy.caller.env).available;
}

/** Whether the confinement can run under this environment's PATH (probed once per PATH, then remembered). */
export function confinementAvailability(
  env: { PATH?: string | undefined },
  platform: NodeJS.Platform = process.platform,
): ConfinementAvailability {
  const key = `${platform}\0${env.PATH ?? ""}`;
  let answer = answers.get(key);
  if (!answer) {
    answer = probe(env.PATH, platform);
    if (answers.size >= MAX_ANSWERS) answers.clear();
    answers.set(key, answer);
  }
  return answer;
}
