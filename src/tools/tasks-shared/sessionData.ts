// Where a session keeps its own bookkeeping (task list, todos): a folder given in the context's options,
// else `~/.keel/<kind>/` (KEEL_HOME moves the home). One JSON file per session, written atomically.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { atomicWriteJson } from "../../settings/atomicJson.ts";
import { keelUserDir } from "../../settings/locations.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { ToolError } from "../../tool/errors.ts";

/** Optional folders a host may put on `context.options` to keep session data elsewhere (tests, servers). */
export interface SessionDataOptions {
  tasksDir?: string;
  todosDir?: string;
}

export type SessionDataKind = "tasks" | "todos";

/** Session ids come from clients; keep them to one safe file name. */
function safeFileStem(id: string): string {
  const stem = id.replace(/[^A-Za-z0-9_.-]/g, "_").replace(/^\.+/, "_");
  return stem === "" ? "_" : stem.slice(0, 200);
}

export function sessionDataDir(context: ToolUseContext, kind: SessionDataKind): string {
  const options = context.options as SessionDataOptions;
  const configured = kind === "tasks" ? options.tasksDir : options.todosDir;
  return configured ?? join(keelUserDir(context.getAppState().toolPermissionContext.caller.env), kind);
}

/** `<dir>/<sessionId>.json`, or `<dir>/<sessionId>.<scope>.json` for a scoped list (a sub-agent's todos). */
export function sessionDataFile(context: ToolUseContext, kind: SessionDataKind, scope?: string): string {
  const stem = safeFileStem(context.options.sessionId);
  const name = scope === undefined ? `${stem}.json` : `${stem}.${safeFileStem(scope)}.json`;
  return join(sessionDataDir(context, kind), name);
}

/** The parsed file, or undefined when it does not exist yet. A damaged file is an error naming it. */
export async function readSessionJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ToolError(
      "corrupt_session_data",
      `The session file ${path} is not valid JSON (${(error as Error).message}). Move it away to start a fresh list.`,
    );
  }
}

export function writeSessionJson(path: string, value: unknown): void {
  atomicWriteJson(path, value);
}

const locks = new Map<string, Promise<unknown>>();

/** Runs read-modify-write steps on one file one at a time within this process. */
export async function withFileLock<T>(path: string, run: () => Promise<T>): Promise<T> {
  // The stored promise never rejects, so one failed step does not block the next.
  const previous = locks.get(path) ?? Promise.resolve();
  const next = previous.then(run);
  const settled = next.catch(() => undefined);
  locks.set(path, settled);
  try {
    return await next;
  } finally {
    if (locks.get(path) === settled) locks.delete(path);
  }
}
