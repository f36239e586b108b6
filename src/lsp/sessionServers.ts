// The language servers of each session: one per server and workspace folder, started on first use,
// restarted once after a crash, hang or flood, and stopped when the session ends
// (stopLanguageServers). Only this module's callers that really start a server load the JSON-RPC code.
import { dirname, isAbsolute, resolve } from "node:path";
import { workingDirectoryOf } from "../permissions/paths.ts";
import type { ToolUseContext } from "../tool/context.ts";
import { ToolError } from "../tool/errors.ts";
import { onSessionEnd } from "../tool/sessionEnd.ts";
import type { LanguageServer } from "./languageServer.ts";
import { LSP_ERROR, lspError } from "./launch.ts";
import {
  definitionFor,
  findDefinitionFor,
  type LanguageServerDefinition,
  type LspOptions,
  languageIdOf,
} from "./servers.ts";

interface Slot {
  definition: LanguageServerDefinition;
  root: string;
  starting?: Promise<LanguageServer>;
  running?: LanguageServer;
  failures: number;
  lastFailure?: ToolError;
}

/** Failures after which a server stays off for the session: the first is followed by one restart. */
const MAX_FAILURES = 2;

const sessions = new Map<string, Map<string, Slot>>();
onSessionEnd((sessionId) => stopLanguageServers(sessionId));

export function lspOptionsOf(context: ToolUseContext): LspOptions {
  return (context.options as { lsp?: LspOptions }).lsp ?? {};
}

/** The folder a server serves for a file: its configured folder, the working directory holding the file, or the file's folder. */
function workspaceRootFor(
  definition: LanguageServerDefinition,
  path: string,
  context: ToolUseContext,
): string {
  const state = context.getAppState();
  const projectRoot = state.toolPermissionContext.projectRoot;
  if (definition.workspaceFolder)
    return isAbsolute(definition.workspaceFolder)
      ? definition.workspaceFolder
      : resolve(projectRoot, definition.workspaceFolder);
  return workingDirectoryOf(path, state.toolPermissionContext, state.cwd) ?? dirname(path);
}

function slotFor(context: ToolUseContext, path: string, create: boolean): Slot | undefined {
  const definition = definitionFor(path, lspOptionsOf(context));
  const root = workspaceRootFor(definition, path, context);
  const sessionId = context.options.sessionId;
  const key = `${definition.name}\0${root}`;
  let slots = sessions.get(sessionId);
  if (!slots) {
    if (!create) return undefined;
    slots = new Map();
    sessions.set(sessionId, slots);
  }
  let slot = slots.get(key);
  if (!slot && create) {
    slot = { definition, root, failures: 0 };
    slots.set(key, slot);
  }
  return slot;
}

function recordFailure(slot: Slot, server: LanguageServer | undefined, error: ToolError): void {
  if (server && slot.running !== server) return;
  slot.failures++;
  slot.lastFailure = error;
  slot.running = undefined;
  slot.starting = undefined;
  void server?.stop();
}

async function startIn(slot: Slot, context: ToolUseContext): Promise<LanguageServer> {
  const { definition } = slot;
  const launch = definition.launch(slot.root, lspOptionsOf(context));
  const { LanguageServer } = await import("./languageServer.ts");
  const server = await LanguageServer.start({
    name: definition.name,
    launch,
    root: slot.root,
    languageIdFor: (path) => languageIdOf(definition, path),
    startupTimeoutMs: definition.startupTimeoutMs,
    requestTimeoutMs: definition.requestTimeoutMs,
  });
  server.onFailure((error) => recordFailure(slot, server, error));
  return server;
}

function gaveUp(slot: Slot): ToolError {
  const last = slot.lastFailure?.message ?? "unknown failure";
  return lspError(
    LSP_ERROR.gaveUp,
    `The ${slot.definition.name} language server failed twice in this session and is not restarted again. Last failure: ${last} Use Grep and Read instead.`,
  );
}

function waitOrAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new ToolError("aborted", "The call was cancelled."));
  return new Promise<T>((resolvePromise, reject) => {
    const onAbort = () => reject(new ToolError("aborted", "The call was cancelled."));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolvePromise, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * The server for a file, started on first use. After a failure the next call starts it again, once;
 * after a second failure it stays off for the session and calls get a clear error.
 */
export async function serverForFile(context: ToolUseContext, path: string): Promise<LanguageServer> {
  const slot = slotFor(context, path, true) as Slot;
  if (slot.running && !slot.running.failure) return slot.running;
  if (!slot.starting) {
    if (slot.failures >= MAX_FAILURES) throw gaveUp(slot);
    const starting = startIn(slot, context);
    slot.starting = starting;
    starting.then(
      (server) => {
        if (slot.starting === starting) slot.running = server;
      },
      (error: unknown) => {
        if (slot.starting !== starting) return;
        recordFailure(
          slot,
          undefined,
          error instanceof ToolError ? error : lspError(LSP_ERROR.startFailed, String(error)),
        );
      },
    );
  }
  return waitOrAbort(slot.starting, context.abortController.signal);
}

/** The server for a file if one is already running in this session; never starts one. */
export function runningServerForFile(context: ToolUseContext, path: string): LanguageServer | undefined {
  // Every edit asks: a session without servers answers at once.
  if (!sessions.has(context.options.sessionId)) return undefined;
  let slot: Slot | undefined;
  try {
    slot = slotFor(context, path, false);
  } catch {
    return undefined;
  }
  return slot?.running && !slot.running.failure ? slot.running : undefined;
}

/** The server for a file while it is starting (warmed by an earlier read or edit); never starts one. */
export function startingServerForFile(
  context: ToolUseContext,
  path: string,
): Promise<LanguageServer> | undefined {
  if (!sessions.has(context.options.sessionId)) return undefined;
  try {
    return slotFor(context, path, false)?.starting;
  } catch {
    return undefined;
  }
}

/** Starts a file's server in the background (for diagnostics after later edits); errors are kept for the next call. */
export function warmServerForFile(context: ToolUseContext, path: string): void {
  // Most files read have no server: say so without building (and catching) an error on every read.
  if (!findDefinitionFor(path, lspOptionsOf(context))) return;
  try {
    const slot = slotFor(context, path, true);
    if (!slot || slot.running || slot.starting || slot.failures > 0) return;
  } catch {
    return;
  }
  serverForFile(context, path).catch(() => {});
}

/** The servers a session has running, for tests and status output. */
export function sessionServers(
  sessionId: string,
): Array<{ name: string; root: string; pid: number | undefined }> {
  return [...(sessions.get(sessionId)?.values() ?? [])]
    .filter((slot) => slot.running)
    .map((slot) => ({ name: slot.definition.name, root: slot.root, pid: slot.running?.pid }));
}

/** Stops every language server of a session (at session end). */
export async function stopLanguageServers(sessionId: string): Promise<void> {
  const slots = sessions.get(sessionId);
  if (!slots) return;
  sessions.delete(sessionId);
  await Promise.all(
    [...slots.values()].map(async (slot) => {
      const server = slot.running ?? (await slot.starting?.catch(() => undefined));
      await server?.stop();
    }),
  );
}
