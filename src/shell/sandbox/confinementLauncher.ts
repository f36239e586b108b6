// The confinement: a Bash call no person approved runs under bubblewrap with the layout's mounts
// (confinementLayout.ts) and nothing else changed: the host's whole file system (devices, /tmp,
// sockets), its network, the same user. Its own PID namespace makes every process the command starts
// end with it, so nothing outlives the stand-ins it relies on. One bubblewrap start per call (a few
// milliseconds, plus a fraction of one per mount); see README "How Bash calls are judged".
import type { ToolPermissionContext } from "../../tool/context.ts";
import { ToolError } from "../../tool/errors.ts";
import type { CommandLauncher } from "../run/exec.ts";
import { bwrapArgs, confinementAvailability } from "./confinementAvailability.ts";
import { type ConfinementLayout, type ConfinementProfile, confinementLayout } from "./confinementLayout.ts";
import {
  emptyFoldersAmong,
  type HeldStandIns,
  holdStandIns,
  removeRemadeFolders,
  type SeenEmptyFolder,
} from "./placeholders.ts";

/**
 * bubblewrap's mount arguments for a layout whose stand-ins are held (`standing`). The `empty` folders
 * (maybe another process's stand-ins, placeholders.ts) are covered by a read-only tmpfs, never bound:
 * a bind of a folder removed before bubblewrap starts would fail the command.
 */
export function confinementMounts(
  layout: ConfinementLayout,
  held: Pick<HeldStandIns, "standing" | "taken">,
  empty: readonly SeenEmptyFolder[] = [],
): string[] {
  const args: string[] = [];
  for (const pin of layout.pins) args.push("--bind", pin, pin);
  const covered = new Set([...held.standing, ...empty.map((folder) => folder.path)]);
  // Deeper mounts after the folders holding them: a later mount of a parent would cover them.
  const mounts: Array<{ path: string; args: string[] }> = [
    ...[...layout.readOnly, ...held.taken]
      .filter((path) => !covered.has(path))
      .map((path) => ({ path, args: ["--ro-bind", path, path] })),
    ...[...covered].map((path) => ({ path, args: ["--tmpfs", path, "--remount-ro", path] })),
    ...layout.hidden.folders.map((path) => ({ path, args: ["--tmpfs", path, "--remount-ro", path] })),
    ...layout.hidden.files.map((path) => ({ path, args: ["--ro-bind", "/dev/null", path] })),
  ];
  mounts.sort((a, b) => a.path.split("/").length - b.path.split("/").length);
  for (const mount of mounts) args.push(...mount.args);
  return args;
}

/** Why the confinement cannot run a command now: it was counted on, so the command is not run. */
function unavailable(reason: string): ToolError {
  return new ToolError(
    "sandbox_unavailable",
    `This command was approved to run confined (protected paths read-only), and the confinement cannot start: ${reason}. The command was not run. Ask the user to fix this, or to approve the command themselves.`,
  );
}

export interface ConfinementOptions {
  profile: ConfinementProfile;
  /** The home folder whose protected entries are covered (default: the caller's). */
  home?: string;
}

/** A launcher that runs each command confined; throws `sandbox_unavailable` when bubblewrap cannot run here. */
export function createConfinementLauncher(
  context: ToolPermissionContext,
  options: ConfinementOptions,
): CommandLauncher {
  const availability = confinementAvailability(context.caller.env);
  if (!availability.available) throw unavailable(availability.reason);
  const held: HeldStandIns[] = [];
  const seenEmpty: SeenEmptyFolder[][] = [];
  return {
    prepare: async (script, cwd) => {
      const layout = confinementLayout(context, {
        cwd,
        home: options.home ?? context.caller.home,
        profile: options.profile,
      });
      const standIns = holdStandIns(layout.absent);
      held.push(standIns);
      const empty = emptyFoldersAmong([...layout.readOnly, ...standIns.taken]);
      seenEmpty.push(empty);
      const argv = [
        availability.bwrap,
        ...bwrapArgs(confinementMounts(layout, standIns, empty)),
        "--",
        "bash",
        "-c",
        script,
      ];
      return { argv, env: process.env };
    },
    release: () => {
      for (const standIns of held.splice(0)) standIns.release();
      for (const empty of seenEmpty.splice(0)) removeRemadeFolders(empty);
    },
  };
}
