// Where a path is: inside the working directories or not, protected or not. Both the path as given
// (normalised) and the path after symlink resolution are checked; boundaries are by path segment.
import { AsyncLocalStorage } from "node:async_hooks";
import { lstatSync, readlinkSync, realpathSync, type Stats } from "node:fs";
import { dirname, isAbsolute, join, resolve, sep } from "node:path";
import { type ToolPermissionContext, workingDirectories } from "../tool/context.ts";

/** `~` and `~/x` as the caller's home (`home`: the CallerEnvironment's, never Keel's own). */
export function expandHome(path: string, home: string): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return path;
}

/** Absolute, normalised, `~` expanded to `home`; relative paths resolve against `cwd`. */
export function toAbsolutePath(path: string, cwd: string, home: string): string {
  const expanded = expandHome(path, home);
  return isAbsolute(expanded) ? resolve(expanded) : resolve(cwd, expanded);
}

/** A tool input's path as the call sees it: relative to the shell's folder, `~` the caller's home. */
export function callPath(
  path: string,
  state: { cwd: string; toolPermissionContext: ToolPermissionContext },
): string {
  return toAbsolutePath(path, state.cwd, state.toolPermissionContext.caller.home);
}

/** Never inside any folder: what a symlink loop resolves to, so it fails every containment check. */
const UNRESOLVABLE = `${sep}\u0000unresolvable-symlink-loop`;

/** What one analysis learned about the disk: lstat and readlink answers, and whole resolutions. */
interface ResolutionCache {
  lstat: Map<string, Stats | undefined>;
  links: Map<string, string | undefined>;
  resolved: Map<string, string>;
}

let activeCache: ResolutionCache | undefined;

/**
 * Runs `judge` with the disk's answers remembered: inside it, each path component is looked at once.
 * For one synchronous judgement (a long script names the same folders again and again); the disk is
 * read as it is when the judgement starts, as it would be without the cache.
 */
export function withPathResolutionCache<T>(judge: () => T): T {
  if (activeCache) return judge();
  activeCache = { lstat: new Map(), links: new Map(), resolved: new Map() };
  try {
    return judge();
  } finally {
    activeCache = undefined;
  }
}

/** One scope's remembered resolutions; `open` ends with the scope, so work it started later resolves afresh. */
interface ResolutionScope {
  resolved: Map<string, string>;
  open: boolean;
}

const scopes = new AsyncLocalStorage<ResolutionScope>();

/** Runs functions (synchronous or not) that share one scope's resolutions, until `close()`. */
export interface PathResolutionScope {
  run<T>(checks: () => T): T;
  close(): void;
}

/**
 * A scope in which each path's symlink resolution is looked up once: one call's deny rules, validation
 * and permission decision name the same path several times, each a realpath of every folder on the
 * way. Inside it they all see the disk as it was at the first look, as one judgement should; what the
 * tool then reads or writes is resolved by the system at open, as it always is. Bounded by its call:
 * entries are a few paths, dropped at `close()`.
 */
export function pathResolutionScope(): PathResolutionScope {
  const scope: ResolutionScope = { resolved: new Map(), open: true };
  return {
    run: (checks) => (scopes.getStore()?.open ? checks() : scopes.run(scope, checks)),
    close() {
      scope.open = false;
      scope.resolved.clear();
    },
  };
}

/** `compute(key)` once per cache (undefined answers included); without a cache, every time. */
export function remembered<T>(cache: Map<string, T> | undefined, key: string, compute: () => T): T {
  if (cache?.has(key)) return cache.get(key) as T;
  const value = compute();
  cache?.set(key, value);
  return value;
}

/** lstat without exceptions (undefined when missing or unreadable), remembered inside a cache scope. */
export function lstatOrUndefined(path: string): Stats | undefined {
  return remembered(activeCache?.lstat, path, () => {
    try {
      return lstatSync(path, { throwIfNoEntry: false });
    } catch {
      return undefined;
    }
  });
}

function readLink(path: string): string | undefined {
  return remembered(activeCache?.links, path, () => {
    try {
      return readlinkSync(path);
    } catch {
      return undefined;
    }
  });
}

/**
 * The physical path: walks the path as written, component by component, following every symlink
 * (also dangling ones: writing through them creates their target) and applying `..` to the real
 * folder reached so far, not to the text (`link/..` is the link target's parent).
 */
export function resolveSymlinks(absolutePath: string, depth = 0): string {
  if (depth > 0) return walk(absolutePath, depth);
  if (activeCache) {
    const cached = activeCache.resolved.get(absolutePath);
    if (cached !== undefined) return cached;
    // Inside an analysis's cache the walk's remembered components are cheaper than a realpath that may throw.
    const resolved = walk(absolutePath, depth);
    activeCache.resolved.set(absolutePath, resolved);
    return resolved;
  }
  const scope = scopes.getStore();
  if (!scope?.open) return resolveOnce(absolutePath);
  const known = scope.resolved.get(absolutePath);
  if (known !== undefined) return known;
  const resolved = resolveOnce(absolutePath);
  scope.resolved.set(absolutePath, resolved);
  return resolved;
}

/**
 * The kernel's realpath answers in one call; it fails only for missing paths, dangling links and
 * loops, which the walk handles.
 */
function resolveOnce(absolutePath: string): string {
  try {
    return realpathSync.native(absolutePath);
  } catch {
    return walk(absolutePath, 0);
  }
}

function walk(absolutePath: string, depth: number): string {
  if (depth > 40) return UNRESOLVABLE;
  let current: string = sep;
  let missing = false;
  for (const part of absolutePath.split(sep)) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      current = dirname(current);
      continue;
    }
    const next = current === sep ? sep + part : current + sep + part;
    if (missing) {
      current = next;
      continue;
    }
    const stats = lstatOrUndefined(next);
    if (!stats) {
      missing = true;
      current = next;
      continue;
    }
    if (!stats.isSymbolicLink()) {
      current = next;
      continue;
    }
    const target = readLink(next);
    if (target === undefined) return UNRESOLVABLE;
    current = resolveSymlinks(isAbsolute(target) ? target : current + sep + target, depth + 1);
    if (current === UNRESOLVABLE) return UNRESOLVABLE;
  }
  return current;
}

/**
 * Where a dangling symlink points, or undefined when `path` is not one. A write through it creates the
 * target, so the target is judged too (resolveSymlinks also follows it; this names it for messages).
 */
export function danglingLinkTarget(path: string): string | undefined {
  if (!lstatOrUndefined(path)?.isSymbolicLink()) return undefined;
  const target = readLink(path);
  if (target === undefined) return undefined;
  const absolute = isAbsolute(target) ? target : dirname(path) + sep + target;
  const resolved = resolve(absolute);
  return lstatOrUndefined(resolveSymlinks(resolved)) ? undefined : resolved;
}

/** `~` expanded and made absolute, but with `..` kept as written, for physical resolution. */
function rawAbsolute(path: string, cwd: string, home: string): string {
  const expanded = expandHome(path, home);
  return isAbsolute(expanded) ? expanded : cwd + sep + expanded;
}

/** Segment-wise containment: `/proj_evil` is not inside `/proj`. */
export function isPathWithin(child: string, parent: string): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith(sep) ? parent : parent + sep;
  return child.startsWith(prefix);
}

/** Both forms of a path that every check must pass: as given (normalised) and symlink-resolved. */
export function pathForms(path: string, cwd: string, home: string): { given: string; resolved: string } {
  return {
    given: toAbsolutePath(path, cwd, home),
    resolved: resolveSymlinks(rawAbsolute(path, cwd, home)),
  };
}

interface WorkingDirEntry {
  dir: string;
  /** As configured and symlink-resolved. */
  forms: string[];
}

// Policies are frozen and replaced on change, so each one's working directories resolve once. A folder
// re-linked later only makes paths fail the check (resolved forms no longer match): it fails closed.
const workingDirCache = new WeakMap<ToolPermissionContext, WorkingDirEntry[]>();

function workingDirEntries(context: ToolPermissionContext): WorkingDirEntry[] {
  let entries = workingDirCache.get(context);
  if (!entries) {
    entries = workingDirectories(context).map((dir) => {
      const absolute = resolve(dir);
      return { dir: absolute, forms: [...new Set([absolute, resolveSymlinks(absolute)])] };
    });
    workingDirCache.set(context, entries);
  }
  return entries;
}

/** The working directory holding a path (given and resolved form both inside it), or undefined. */
export function workingDirectoryOf(
  path: string,
  context: ToolPermissionContext,
  cwd?: string,
): string | undefined {
  const { given, resolved } = pathForms(path, cwd ?? context.projectRoot, context.caller.home);
  for (const { dir, forms } of workingDirEntries(context)) {
    if (forms.some((form) => isPathWithin(given, form)) && forms.some((form) => isPathWithin(resolved, form)))
      return dir;
  }
  return undefined;
}

/** Inside only if both the given and the resolved path are inside some working directory. */
export function isInWorkingDirectories(path: string, context: ToolPermissionContext, cwd?: string): boolean {
  const { given, resolved } = pathForms(path, cwd ?? context.projectRoot, context.caller.home);
  const dirs = workingDirEntries(context).flatMap((entry) => entry.forms);
  return dirs.some((dir) => isPathWithin(given, dir)) && dirs.some((dir) => isPathWithin(resolved, dir));
}

/**
 * Where a protected name takes effect: "project" names are read from the folder a program works in
 * (git, npm, editors and agents read them there, so a project can carry them), "home" names only from
 * the home folder. The analyzer protects every name everywhere; the Bash confinement
 * (shell/sandbox/confinementLayout.ts) uses the distinction to decide where a name that does not
 * exist yet must be made uncreatable.
 */
type ReadFrom = "project" | "home";

interface ProtectedName {
  name: string;
  kind: "folder" | "file";
  readFrom: ReadFrom;
}

const folder = (name: string, readFrom: ReadFrom): ProtectedName => ({ name, kind: "folder", readFrom });
const file = (name: string, readFrom: ReadFrom): ProtectedName => ({ name, kind: "file", readFrom });

/**
 * The protected names: folders whose files make programs run code or hold credentials (`.husky`: git
 * hooks it installs), and files that configure shells, git, package managers and agents.
 */
const PROTECTED_NAMES: readonly ProtectedName[] = [
  folder(".git", "project"),
  folder(".husky", "project"),
  folder(".keel", "project"),
  folder(".claude", "project"),
  folder(".vscode", "project"),
  folder(".idea", "project"),
  folder(".ssh", "home"),
  folder(".gnupg", "home"),
  folder(".aws", "home"),
  folder(".kube", "home"),
  folder(".docker", "home"),
  file(".bashrc", "home"),
  file(".bash_profile", "home"),
  file(".bash_login", "home"),
  file(".bash_logout", "home"),
  file(".bash_aliases", "home"),
  file(".profile", "home"),
  file(".zshrc", "home"),
  file(".zshenv", "home"),
  file(".zprofile", "home"),
  file(".zlogin", "home"),
  file(".zlogout", "home"),
  file(".cshrc", "home"),
  file(".tcshrc", "home"),
  file(".kshrc", "home"),
  file(".inputrc", "home"),
  file(".gitconfig", "home"),
  file(".gitmodules", "project"),
  file(".gitattributes", "project"),
  file(".git-credentials", "home"),
  file(".mcp.json", "project"),
  file(".npmrc", "project"),
  file(".pypirc", "home"),
  file(".netrc", "home"),
  file(".hgrc", "home"),
  file(".envrc", "project"),
  file(".vimrc", "project"),
  file(".gvimrc", "project"),
  file(".exrc", "project"),
  file("authorized_keys", "home"),
];
const PROTECTED_DIRS = PROTECTED_NAMES.filter((entry) => entry.kind === "folder").map((entry) => entry.name);
const PROTECTED_FILES = PROTECTED_NAMES.filter((entry) => entry.kind === "file").map((entry) => entry.name);

/**
 * Whether `test` (a glob segment's matcher) could match the name of a protected folder or file. The
 * protected names that matter are dot names (the one that is not, authorized_keys, lives in .ssh).
 */
export function couldNameProtected(test: (name: string) => boolean): boolean {
  return [...PROTECTED_DIRS, ...PROTECTED_FILES, ".config", ".bashrc.d", ".zshrc.d"]
    .filter((name) => name.startsWith("."))
    .some(test);
}

/** Other places whose files make tools run code: cargo's config (also a project's), the user's own bin folder (first on PATH). */
const NESTED_PROTECTED: Array<{ parent: string; child: ProtectedName }> = [
  { parent: ".cargo", child: file("config", "project") },
  { parent: ".cargo", child: file("config.toml", "project") },
  { parent: ".local", child: folder("bin", "home") },
];

/** Folders under ~/.config whose files make programs run commands (git's XDG config, fish, systemd units, autostart). */
const CONFIG_FOLDERS = ["git", "fish", "systemd", "autostart", "environment.d"];

/** A protected entry as the confinement looks for it: its path below a folder, and what it is. */
export interface ProtectedEntry {
  /** Path segments below the folder (`[".git"]`, `[".config", "git"]`). */
  segments: string[];
  kind: "folder" | "file";
}

/**
 * The protected entries to enforce directly below a folder, from the list above: in a project folder
 * (a working directory, the shell's cwd) the names read from a project, a folder holding protected
 * entries (`.cargo`) counting whole; in the home folder every name, with the protected entries inside
 * `.cargo`, `.local` and `.config` (which hold much else) named one by one.
 */
export function protectedEntriesOf(where: ReadFrom): ProtectedEntry[] {
  const entries: ProtectedEntry[] = PROTECTED_NAMES.filter(
    (entry) => where === "home" || entry.readFrom === "project",
  ).map((entry) => ({ segments: [entry.name], kind: entry.kind }));
  if (where === "project") {
    const holders = new Set(
      NESTED_PROTECTED.filter(({ child }) => child.readFrom === "project").map(({ parent }) => parent),
    );
    for (const holder of holders) entries.push({ segments: [holder], kind: "folder" });
    return entries;
  }
  for (const { parent, child } of NESTED_PROTECTED)
    entries.push({ segments: [parent, child.name], kind: child.kind });
  for (const name of CONFIG_FOLDERS) entries.push({ segments: [".config", name], kind: "folder" });
  return entries;
}

/**
 * The operating system's own folders (Linux and macOS): what is written there changes the machine for
 * every program, and removing what they hold breaks it. Writes inside them are protected; the
 * temporary folders below them are not.
 */
export const SYSTEM_FOLDERS: readonly string[] = [
  "/bin",
  "/boot",
  "/dev",
  "/etc",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/opt",
  "/proc",
  "/run",
  "/sbin",
  "/srv",
  "/sys",
  "/usr",
  "/var",
  "/nix",
  "/snap",
  "/Applications",
  "/Library",
  "/System",
  "/private",
  "/cores",
];

const TEMPORARY_FOLDERS = ["/var/tmp", "/private/tmp", "/private/var/folders", "/var/folders"];

/** The system folder holding a path, unless it is inside a temporary folder (the caller's `tmpDir` too). */
export function systemFolderOf(path: string, tmpDir: string): string | undefined {
  if ([...TEMPORARY_FOLDERS, tmpDir].some((dir) => isPathWithin(path, dir))) return undefined;
  return SYSTEM_FOLDERS.find((dir) => isPathWithin(path, dir));
}

/**
 * Why a path is protected (asks even in bypass mode), or undefined. Checks given and resolved forms.
 * The policy's worktreeRoot (the session's EnterWorktree worktree): a form inside it is judged below it only.
 */
export function protectedPathReason(
  path: string,
  cwd: string,
  policy: Pick<ToolPermissionContext, "caller" | "worktreeRoot">,
): string | undefined {
  const worktreeRoot = policy.worktreeRoot;
  const { given, resolved } = pathForms(path, cwd, policy.caller.home);
  const roots = worktreeRoot
    ? [...new Set([resolve(worktreeRoot), resolveSymlinks(resolve(worktreeRoot))])]
    : [];
  for (const form of new Set([given, resolved])) {
    const within = roots.find((candidate) => form !== candidate && isPathWithin(form, candidate));
    const segments = (within ? form.slice(within.length) : form).split(sep).filter(Boolean);
    // Compared without case: on a case-insensitive file system `.GIT/config` is git's config.
    const lower = segments.map((segment) => segment.toLowerCase());
    const dir = lower.find((segment) => PROTECTED_DIRS.includes(segment));
    if (dir) return `${form} is inside a protected ${dir}/ folder`;
    const name = segments.at(-1) ?? "";
    if (PROTECTED_FILES.includes(name.toLowerCase())) return `${form} is a protected file (${name})`;
    if (/^\.(bash|zsh)rc\..+/.test(name) || name === ".config")
      return `${form} is a shell configuration file`;
    const config = CONFIG_FOLDERS.find((folder) => {
      const at = lower.indexOf(".config");
      return at !== -1 && lower[at + 1] === folder;
    });
    const nested = NESTED_PROTECTED.find(({ parent, child }) => {
      const at = lower.indexOf(parent);
      return at !== -1 && lower[at + 1] === child.name;
    });
    if (nested)
      return `${form} is inside ~/${nested.parent}/${nested.child.name}, which configures tools that run code`;
    if (config)
      return `${form} is inside ~/.config/${config}/, whose files configure programs that run commands`;
    const root = systemFolderOf(form, policy.caller.tmpDir);
    if (root) return `${form} is inside the system folder ${root}`;
  }
  return undefined;
}
