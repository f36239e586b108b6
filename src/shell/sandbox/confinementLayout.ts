// What a confined Bash call may not change, as mounts: the protected entries Keel's list names
// (permissions/paths.ts, protectedEntriesOf) in each working directory, the shell's cwd and the home
// folder; the fixed paths of Edit deny rules read-only; what Read deny rules cover hidden.
//
// - Existing entries are mounted read-only (a symlink: where it leads; the link itself stays replaceable).
// - Entries that do not exist get an empty folder as stand-in (placeholders.ts), mounted read-only: in a
//   project folder (working directory, cwd) every name read from a project (`.git`, `.claude`, `.keel`,
//   `.vscode`, `.idea`, `.husky`, `.cargo`, `.mcp.json`, `.npmrc`, `.gitmodules`, ...); in the home folder
//   the protected folders (`.ssh`, `.aws`, `~/.config/git`, ...), not files such as `.bash_profile`, whose
//   mere presence would change how shells start outside while the command runs.
// - The working directories, the home folder and the folders holding protected entries are pinned
//   (bound onto themselves), as are their ancestors in folders the user may write: a command cannot
//   rename a project away and plant another one, with its own `.git`, where it was.
// - The "git" profile (a line whose every program is git or read-only) keeps git's own data writable:
//   `.git` is pinned and only its hooks and config are read-only, so git commit, fetch and checkout work.
import { accessSync, constants, lstatSync, readFileSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, resolve, sep } from "node:path";
import { isPathWithin, type ProtectedEntry, protectedEntriesOf } from "../../permissions/paths.ts";
import { type ToolPermissionContext, workingDirectories } from "../../tool/context.ts";
import { pathsFromDenyRules } from "./denyRulePaths.ts";
import { isLiveStandIn } from "./placeholders.ts";
import { type HiddenPaths, readDeniedPaths } from "./readDenyExpansion.ts";

export type ConfinementProfile = "strict" | "git";

export interface ConfinementLayout {
  /** Folders bound onto themselves so they cannot be renamed away, outermost first. */
  pins: string[];
  /** Existing paths mounted read-only. */
  readOnly: string[];
  /** Protected names that do not exist: a read-only empty folder stands in for each while the command runs. */
  absent: string[];
  /** What Read deny rules cover, shown empty. */
  hidden: HiddenPaths;
}

export interface LayoutOptions {
  cwd: string;
  home: string;
  profile: ConfinementProfile;
}

/** What is at `path` (a missing path costs no exception: most protected names are missing). */
function kindOf(path: string): "folder" | "file" | "link" | undefined {
  try {
    const stats = lstatSync(path, { throwIfNoEntry: false });
    if (!stats) return undefined;
    return stats.isSymbolicLink() ? "link" : stats.isDirectory() ? "folder" : "file";
  } catch {
    return undefined;
  }
}

function real(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

function writable(folder: string): boolean {
  try {
    accessSync(folder, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

const PROTECTED_FOLDER_NAMES = new Set(
  [...protectedEntriesOf("home"), ...protectedEntriesOf("project")]
    .filter((entry) => entry.segments.length === 1 && entry.kind === "folder")
    .map((entry) => entry.segments[0] as string),
);

/**
 * A folder below a protected folder (`.claude/skills`): the protected folder covers it already. The
 * session's EnterWorktree worktree lives in `.keel/worktrees/` on purpose: it is judged below its root.
 */
function insideProtectedFolder(folder: string, worktreeRoot: string | undefined): boolean {
  const below =
    worktreeRoot && isPathWithin(folder, worktreeRoot) ? folder.slice(worktreeRoot.length) : folder;
  return below
    .split(sep)
    .slice(0, -1)
    .some((segment) => PROTECTED_FOLDER_NAMES.has(segment.toLowerCase()));
}

/** The `gitdir:` a `.git` file points to, and the common folder that one names, when they exist. */
function gitDirsOf(dotGitFile: string): string[] {
  let text: string;
  try {
    text = readFileSync(dotGitFile, "utf8");
  } catch {
    return [];
  }
  const named = text.match(/^gitdir:\s*(.+?)\s*$/m)?.[1];
  if (!named) return [];
  const gitDir = real(isAbsolute(named) ? named : resolve(dirname(dotGitFile), named));
  if (!gitDir) return [];
  const dirs = [gitDir];
  try {
    const common = readFileSync(join(gitDir, "commondir"), "utf8").trim();
    const commonDir = common ? real(isAbsolute(common) ? common : resolve(gitDir, common)) : undefined;
    if (commonDir) dirs.push(commonDir);
  } catch {}
  return dirs;
}

class Builder {
  readonly pins = new Set<string>();
  readonly readOnly = new Set<string>();
  readonly absent = new Set<string>();

  private readonly profile: ConfinementProfile;
  /** Folders a command works in: never made read-only whole, or nothing could be written. */
  private readonly workFolders: readonly string[];

  constructor(profile: ConfinementProfile, workFolders: readonly string[]) {
    this.profile = profile;
    this.workFolders = workFolders;
  }

  /** `folder` and every ancestor that sits in a folder the user may write (and so could rename it). */
  pinChain(folder: string): void {
    for (let at = folder; at !== dirname(at); at = dirname(at)) if (writable(dirname(at))) this.pins.add(at);
  }

  private holdsWorkFolder(path: string): boolean {
    return this.workFolders.some((folder) => isPathWithin(folder, path));
  }

  /**
   * An existing protected path, read-only. A protected folder holding a work folder (a worktree in
   * `.keel/worktrees/`) is pinned instead, unless a deny rule names it (`denied`).
   */
  existing(path: string, name: string | undefined, denied = false): void {
    if (!denied && this.holdsWorkFolder(path)) {
      this.pins.add(path);
      return;
    }
    if (name === ".git") this.repository(path);
    else this.readOnly.add(path);
  }

  /** A repository: read-only whole, or in the git profile with only what runs code read-only. */
  private repository(dotGit: string): void {
    const kind = kindOf(dotGit);
    if (kind === "file") {
      // A worktree's or submodule's `.git` file: it cannot be pointed elsewhere, and what it points to is protected.
      this.readOnly.add(dotGit);
      for (const gitDir of gitDirsOf(dotGit)) this.gitDir(gitDir);
      return;
    }
    this.gitDir(dotGit);
  }

  private gitDir(gitDir: string): void {
    if (this.profile === "strict" || this.holdsWorkFolder(gitDir)) {
      if (this.holdsWorkFolder(gitDir)) this.pins.add(gitDir);
      else this.readOnly.add(gitDir);
      return;
    }
    this.pins.add(gitDir);
    const hooks = join(gitDir, "hooks");
    const hooksKind = kindOf(hooks);
    if (hooksKind === undefined || (hooksKind === "folder" && isLiveStandIn(hooks))) this.absent.add(hooks);
    else if (hooksKind !== "link") this.readOnly.add(hooks);
    else this.linked(hooks, undefined);
    for (const name of ["config", "config.worktree", "commondir"]) {
      const path = join(gitDir, name);
      if (kindOf(path) !== undefined) this.readOnly.add(real(path) ?? path);
    }
  }

  /** A symlinked entry: where it leads is read-only (a dangling link is left: it leads nowhere yet). */
  linked(path: string, name: string | undefined, denied = false): void {
    const target = real(path);
    if (target) this.existing(target, name, denied);
  }

  /** One protected entry of a covered folder; `standIn`: a missing one gets a stand-in. */
  entry(folder: string, entry: ProtectedEntry, standIn: boolean): void {
    const [first, second] = entry.segments as [string, string | undefined];
    let parent = folder;
    if (second !== undefined) {
      // Nested (`.config/git`): the holder must exist to hold it, and is pinned so it stays.
      const holder = join(folder, first);
      const holderKind = kindOf(holder);
      if (holderKind === undefined || holderKind === "file") return;
      const resolved = holderKind === "link" ? real(holder) : holder;
      if (!resolved) return;
      this.pins.add(resolved);
      parent = resolved;
    }
    const path = join(parent, second ?? first);
    const kind = kindOf(path);
    // Another command's stand-in (of this process) goes when that command ends: for this one it is
    // still missing, and held again (shared) rather than taken for an entry that stays.
    if (kind === undefined || (kind === "folder" && isLiveStandIn(path))) {
      if (standIn) this.absent.add(path);
    } else {
      const name = second === undefined ? first.toLowerCase() : undefined;
      if (kind === "link") this.linked(path, name);
      else this.existing(path, name);
    }
  }
}

/** Where the confinement of one call puts its mounts (computed per call: a few hundred stats, well under 1 ms). */
export function confinementLayout(context: ToolPermissionContext, options: LayoutOptions): ConfinementLayout {
  const home = real(options.home);
  const resolved = (folders: readonly string[]) =>
    folders.map((folder) => real(folder)).filter((folder): folder is string => folder !== undefined);
  const working = resolved(workingDirectories(context));
  const worktreeRoot = context.worktreeRoot === undefined ? undefined : real(context.worktreeRoot);
  const projectFolders = [...new Set([...working, ...resolved([options.cwd])])];
  const builder = new Builder(options.profile, projectFolders);
  const roles = new Map<string, { project: boolean; home: boolean }>();
  for (const folder of projectFolders) roles.set(folder, { project: true, home: folder === home });
  if (home && !roles.has(home)) roles.set(home, { project: false, home: true });

  for (const [folder, role] of roles) {
    if (insideProtectedFolder(folder, worktreeRoot)) continue;
    // A working directory cannot be swapped for another; a cwd below one is not pinned (so a command
    // may still remove the folder it is in), since a repository planted there would be a nested one.
    if (working.includes(folder) || role.home) builder.pinChain(folder);
    // A missing name read from a project gets a stand-in; of the home folder's own names only folders
    // do (see above), also when the home folder is a project as well.
    const entries = new Map<string, { entry: ProtectedEntry; standIn: boolean }>();
    const homeEntries = role.home ? protectedEntriesOf("home") : [];
    for (const entry of homeEntries)
      entries.set(entry.segments.join("/"), { entry, standIn: entry.kind === "folder" });
    // In the home folder, a holder such as `.cargo` keeps its other contents writable.
    const holders = new Set(
      homeEntries.filter((entry) => entry.segments.length > 1).map((entry) => entry.segments[0]),
    );
    for (const entry of role.project ? protectedEntriesOf("project") : [])
      if (!holders.has(entry.segments[0])) entries.set(entry.segments.join("/"), { entry, standIn: true });
    for (const { entry, standIn } of entries.values()) builder.entry(folder, entry, standIn);
  }
  for (const path of pathsFromDenyRules(context, "write")) {
    const kind = kindOf(path);
    if (kind === "link") builder.linked(path, undefined, true);
    else if (kind !== undefined) builder.existing(path, undefined, true);
  }
  const readOnly = [...builder.readOnly].filter((path) => !builder.absent.has(path));
  return {
    pins: byDepth(builder.pins),
    readOnly: byDepth(readOnly),
    absent: byDepth(builder.absent),
    hidden: readDeniedPaths(context),
  };
}

/** Outermost first (a mount of a folder must come before mounts inside it), then by name. */
function byDepth(paths: Iterable<string>): string[] {
  return [...paths]
    .map((path) => ({ path, depth: path.split(sep).length }))
    .sort((a, b) => a.depth - b.depth || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((entry) => entry.path);
}
