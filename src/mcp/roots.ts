// The client's roots (file:// URIs it offers) become working directories of the MCP session, beside the
// ones from --cwd and --add-dir. Roots that are not local folders are ignored.
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import { type ToolUseContext, updatePermissionContext, type WorkingDirectory } from "../tool/context.ts";
import { errorMessage } from "../tool/errors.ts";

export function rootDirectories(roots: readonly { uri: string }[]): string[] {
  const dirs: string[] = [];
  for (const root of roots) {
    if (!root.uri.startsWith("file:")) continue;
    let path: string;
    try {
      path = resolve(fileURLToPath(root.uri));
    } catch {
      continue;
    }
    try {
      if (statSync(path).isDirectory() && !dirs.includes(path)) dirs.push(path);
    } catch {
      // A root that does not exist here (another machine's path) grants nothing.
    }
  }
  return dirs;
}

/** Replaces the root-derived working directories, keeping the configured ones. */
export function applyRoots(
  context: ToolUseContext,
  configured: readonly WorkingDirectory[],
  roots: readonly { uri: string }[],
): string[] {
  const dirs = rootDirectories(roots);
  context.setAppState((state) => {
    const permission = state.toolPermissionContext;
    const known = new Set([permission.projectRoot, ...configured.map((dir) => dir.path)]);
    const fromRoots = dirs
      .filter((dir) => !known.has(dir))
      .map((path) => ({ path, source: "session" as const }));
    return {
      ...state,
      toolPermissionContext: updatePermissionContext(permission, {
        additionalWorkingDirectories: [...configured.map((dir) => ({ ...dir })), ...fromRoots],
      }),
    };
  });
  return dirs;
}

/** How roots are asked for: stdio can ask at once; over HTTP a request needs an open stream to go out on. */
export type RootsTiming = "atStart" | "onRequest";

export interface ClientRootsOptions {
  server: Server;
  context: ToolUseContext;
  timing: RootsTiming;
  log: (line: string) => void;
  /** How long a call waits for roots being asked before it goes on with what is known (default 3 s). */
  callWaitMs?: number;
}

/** The client did not answer roots/list within the SDK request timeout: given up, asked again later. */
const ROOTS_REQUEST_TIMEOUT_MS = 30_000;
const CALL_WAIT_MS = 3_000;

/**
 * Keeps the session's working directories in step with the client's roots. Over HTTP the roots/list
 * request goes out on the stream of the client's own request (the first one, and the first after
 * roots/list_changed): a request sent when the session starts would go to the standalone GET stream,
 * which clients open later or never, and would wait for its timeout. A tool call waits for the answer
 * only briefly (the client answers at once); past that it goes on with the directories known so far.
 */
export class ClientRoots {
  readonly #options: ClientRootsOptions;
  readonly #configured: WorkingDirectory[];
  #stale = true;
  #pending: Promise<void> | undefined;
  /** A pending request some call already waited out: later calls do not wait for it again. */
  #waitedOut: Promise<void> | undefined;

  constructor(options: ClientRootsOptions) {
    this.#options = options;
    this.#configured = options.context
      .getAppState()
      .toolPermissionContext.additionalWorkingDirectories.map((dir) => ({
        path: dir.path,
        source: dir.source,
      }));
  }

  get #supported(): boolean {
    return this.#options.server.getClientCapabilities()?.roots !== undefined;
  }

  /** The session finished initializing. */
  onInitialized(): void {
    if (this.#options.timing === "atStart") this.#refresh(undefined);
  }

  /** notifications/roots/list_changed. */
  onListChanged(): void {
    this.#stale = true;
    if (this.#options.timing === "atStart") this.#refresh(undefined);
  }

  /** A request came in: ask for stale roots on its stream. Resolves when a call may go on. */
  beforeRequest(requestId: RequestId): Promise<void> {
    if (!this.#supported) return Promise.resolve();
    if (this.#stale && !this.#pending) this.#refresh(requestId);
    const pending = this.#pending;
    if (!pending || pending === this.#waitedOut) return Promise.resolve();
    const waitMs = this.#options.callWaitMs ?? CALL_WAIT_MS;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.#waitedOut = pending;
        this.#options.log(
          `roots: the client has not answered roots/list within ${waitMs} ms; the call goes on with the working directories known so far`,
        );
        resolve();
      }, waitMs);
      void pending.finally(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  #refresh(relatedRequestId: RequestId | undefined): void {
    if (!this.#supported) return;
    this.#stale = false;
    const { server, context, log } = this.#options;
    const request = server
      .listRoots(undefined, {
        timeout: ROOTS_REQUEST_TIMEOUT_MS,
        ...(relatedRequestId === undefined ? {} : { relatedRequestId }),
      })
      .then(({ roots }) => {
        const dirs = applyRoots(context, this.#configured, roots);
        log(`roots: ${dirs.length ? dirs.join(", ") : "(none usable)"}`);
      })
      .catch((error: unknown) => {
        // Not asked again until the client says its roots changed: a client that does not answer
        // would otherwise make every call wait. A session that ended has nobody to tell.
        if (!/Connection closed/i.test(errorMessage(error)))
          log(
            `could not read the client's roots (asked again when it sends roots/list_changed): ${errorMessage(error)}`,
          );
      })
      .finally(() => {
        if (this.#pending === request) this.#pending = undefined;
      });
    this.#pending = request;
  }
}
