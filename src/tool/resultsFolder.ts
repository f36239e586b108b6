// The folder where a session keeps what a tool result cannot carry: the full text of a result over its
// budget, Bash output files, binary MCP resources. One folder per session, only this user may enter it
// (0700), every file in it 0600. A session that cannot be resumed keeps it under
// <tmp>/keel-<uid>/<session>/tool-results: removed when the session ends or its process exits, and,
// after a crash, by the next Keel process that saves a result (its owner, named in `.owner`, is gone).
// The agent's sessions, which can be resumed, keep it beside their transcript (savedResults.ts in
// agent/ removes those after an age).
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { ensurePrivateFolder, tmpFolder } from "./privateFolder.ts";
import { ownerIsGone } from "./processAlive.ts";
import { onSessionEnd } from "./sessionEnd.ts";

/** Mode of every file saved in a results folder. */
export const RESULT_FILE_MODE = 0o600;
const OWNER_FILE = ".owner";
/** Session folders of gone processes looked at per sweep: a bounded cost at a process's first save. */
const MAX_SWEPT_SESSIONS = 1_000;
/** A session folder with no owner file (its process died making it) is removed after this long. */
const UNOWNED_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** `<tmp>/keel-<uid>`: the private folder of this user's non-resumable sessions' results. */
export function temporaryResultsRoot(env: NodeJS.ProcessEnv = process.env): string {
  const uid = process.getuid?.();
  return join(tmpFolder(env), uid === undefined ? "keel" : `keel-${uid}`);
}

/** Session ids may come from clients: one safe folder name. */
function safeFolderName(sessionId: string): string {
  const name = sessionId.replace(/[^A-Za-z0-9_.-]/g, "_").replace(/^\.+/, "_");
  return name === "" ? "_" : name.slice(0, 200);
}

/** The results folder of a session that cannot be resumed. */
export function temporaryResultsDir(sessionId: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(temporaryResultsRoot(env), safeFolderName(sessionId), "tool-results");
}

/** Session folders this process made under the temporary root: removed at session end or exit. */
const owned = new Set<string>();
const prepared = new Set<string>();
const sweptRoots = new Set<string>();

function removeOwned(folder: string): void {
  rmSync(folder, { recursive: true, force: true });
  owned.delete(folder);
  for (const dir of prepared) if (dir.startsWith(`${folder}${sep}`)) prepared.delete(dir);
}

/** Removes the results of a session that cannot be resumed (the agent's are kept for --resume). */
export function removeSessionResults(sessionId: string, env: NodeJS.ProcessEnv = process.env): void {
  const folder = join(temporaryResultsRoot(env), safeFolderName(sessionId));
  if (owned.has(folder)) removeOwned(folder);
}

onSessionEnd((sessionId) => removeSessionResults(sessionId), "forget");

let exitHookSet = false;
function removeAllAtExit(): void {
  if (exitHookSet) return;
  exitHookSet = true;
  process.once("exit", () => {
    for (const folder of [...owned]) removeOwned(folder);
  });
}

/** The session folder under `root` that holds `dir`, when `dir` is inside it. */
function sessionFolderIn(root: string, dir: string): string | undefined {
  const below = relative(root, dir);
  if (below === "" || below.startsWith("..") || below.startsWith(sep)) return undefined;
  return join(root, below.split(sep)[0] as string);
}

/**
 * Removes session folders under `root` whose owning process is gone (a crash, kill -9): at most
 * MAX_SWEPT_SESSIONS looked at. Folders without an owner file are removed once a day old. Returns what
 * it removed.
 */
export function sweepAbandonedSessions(root: string): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return removed;
  }
  for (const name of names.slice(0, MAX_SWEPT_SESSIONS)) {
    const folder = join(root, name);
    if (owned.has(folder)) continue;
    try {
      const stats = statSync(folder);
      if (!stats.isDirectory()) continue;
      let gone: boolean;
      try {
        const ownerFile = join(folder, OWNER_FILE);
        const pid = Number(readFileSync(ownerFile, "utf8").trim());
        gone = ownerIsGone(pid, statSync(ownerFile).mtimeMs);
      } catch {
        // No owner file: a session folder whose process died making it, or not one of ours.
        gone =
          statSync(join(folder, "tool-results")).isDirectory() &&
          Date.now() - stats.mtimeMs > UNOWNED_MAX_AGE_MS;
      }
      if (!gone) continue;
      rmSync(folder, { recursive: true, force: true });
      removed.push(folder);
    } catch {
      // Gone meanwhile, or not ours to read: left alone.
    }
  }
  return removed;
}

/**
 * Makes `dir` ready for saved results: private (see privateFolder.ts). A session folder under the
 * temporary root gets this process as its owner and is removed with the session; the first such folder
 * of a process also sweeps the root of crashed sessions' folders. Throws PrivateFolderError when the
 * folder or the temporary root is another user's or a symlink. `again`: the folder was removed meanwhile.
 */
export function prepareResultsFolder(dir: string, options: { again?: boolean } = {}): void {
  if (prepared.has(dir) && !options.again) return;
  const root = temporaryResultsRoot();
  const session = sessionFolderIn(root, dir);
  ensurePrivateFolder(dir, session ? root : dir);
  prepared.add(dir);
  if (!session) return;
  if (!owned.has(session)) {
    writeFileSync(join(session, OWNER_FILE), `${process.pid}\n`, { mode: RESULT_FILE_MODE });
    owned.add(session);
    removeAllAtExit();
  }
  if (!sweptRoots.has(root)) {
    sweptRoots.add(root);
    sweepAbandonedSessions(root);
  }
}
