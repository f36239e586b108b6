// One running language server: its process, the JSON-RPC connection (vscode-languageserver-protocol),
// the handshake, and requests that cannot hang the caller. A crash, a hang (no answer in time) or a
// flood marks the server failed, kills its process group and fails every pending request at once.
import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import type {
  CancellationToken,
  ClientCapabilities,
  InitializeResult,
  ServerCapabilities,
} from "vscode-languageserver-protocol";
import {
  CancellationTokenSource,
  createProtocolConnection,
  type ProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";
import { errorMessage, ToolError } from "../tool/errors.ts";
import { ownProcessGroup } from "../tool/ownedProcesses.ts";
import { answerServerRequests } from "./clientHandlers.ts";
import { DocumentSync } from "./documentSync.ts";
import { LSP_ERROR, lspError, type ServerLaunch } from "./launch.ts";
import { DEFAULT_FLOOD_LIMIT, type FloodLimit, FloodMeter, TextTail } from "./outputGuard.ts";

export interface LanguageServerOptions {
  /** The configured name ("typescript", "python", a settings key). */
  name: string;
  launch: ServerLaunch;
  /** The workspace folder the server serves. */
  root: string;
  languageIdFor(path: string): string;
  startupTimeoutMs: number;
  requestTimeoutMs: number;
  floodLimit?: FloodLimit;
  signal?: AbortSignal;
}

const CLIENT_CAPABILITIES: ClientCapabilities = {
  general: { positionEncodings: ["utf-16"] },
  workspace: { configuration: true, workspaceFolders: true, symbol: {} },
  textDocument: {
    synchronization: { didSave: true },
    publishDiagnostics: { versionSupport: true },
    diagnostic: { dynamicRegistration: true },
    definition: { linkSupport: true },
    implementation: { linkSupport: true },
    references: {},
    hover: { contentFormat: ["markdown", "plaintext"] },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    callHierarchy: {},
  },
  window: { workDoneProgress: false },
};

const STOP_STEP_MS = 1_000;
const EXIT_REPORT_DELAY_MS = 50;
const CLOSE_REPORT_DELAY_MS = 500;

/** The server capability that announces each request Keel sends. */
const CAPABILITY_OF: Record<string, keyof ServerCapabilities> = {
  "textDocument/definition": "definitionProvider",
  "textDocument/references": "referencesProvider",
  "textDocument/hover": "hoverProvider",
  "textDocument/documentSymbol": "documentSymbolProvider",
  "workspace/symbol": "workspaceSymbolProvider",
  "textDocument/implementation": "implementationProvider",
  "textDocument/prepareCallHierarchy": "callHierarchyProvider",
  "textDocument/diagnostic": "diagnosticProvider",
};

/** Whether a promise settles within `ms` (the timer is cleared as soon as it does). */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    const settled = promise.then(
      () => true,
      () => true,
    );
    return await Promise.race([settled, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function unrefStream(stream: unknown): void {
  (stream as { unref?: () => void } | null)?.unref?.();
}

export class LanguageServer {
  readonly name: string;
  readonly root: string;
  readonly description: string;
  readonly documents: DocumentSync;
  readonly #child: ChildProcess;
  readonly #connection: ProtocolConnection;
  readonly #stderr = new TextTail();
  readonly #requestTimeoutMs: number;
  readonly #failureListeners = new Set<(error: ToolError) => void>();
  readonly #registeredMethods = new Set<string>();
  #capabilities: ServerCapabilities = {};
  #failure: ToolError | undefined;
  #stopping = false;

  private constructor(options: LanguageServerOptions) {
    this.name = options.name;
    this.root = options.root;
    this.description = options.launch.description;
    this.#requestTimeoutMs = options.requestTimeoutMs;
    const { launch } = options;
    // Its own process group, so a hung server and whatever it started die together.
    this.#child = spawn(launch.command, [...launch.args], {
      cwd: options.root,
      env: { ...process.env, ...launch.env },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    // A server must never keep Keel running, nor outlive it: its group is killed however Keel ends.
    this.#child.unref();
    const { pid } = this.#child;
    const { leftovers } = launch;
    if (pid !== undefined) {
      this.#child.once("exit", ownProcessGroup(pid));
      if (leftovers)
        this.#child.once("exit", () => {
          for (const path of leftovers(pid)) rmSync(path, { recursive: true, force: true });
        });
    }
    for (const stream of [this.#child.stdin, this.#child.stdout, this.#child.stderr]) unrefStream(stream);
    this.#child.stderr?.on("data", (chunk: Buffer) => this.#stderr.push(chunk));
    this.#child.stdin?.on("error", () => {});
    this.#child.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT")
        this.#fail(
          lspError(
            LSP_ERROR.missing,
            `The ${this.name} language server is not installed: command not found: ${launch.command}. ${launch.installHint}`,
          ),
        );
      else this.#fail(lspError(LSP_ERROR.startFailed, `Cannot start ${launch.command}: ${error.message}`));
    });
    this.#child.once("exit", (code, signal) => {
      if (this.#stopping) return;
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      // A moment for its last stderr lines to arrive: they usually say why.
      setTimeout(
        () =>
          this.#fail(
            lspError(LSP_ERROR.crashed, `The ${this.name} language server ${how}.${this.#stderrNote()}`),
          ),
        EXIT_REPORT_DELAY_MS,
      );
    });
    const meter = new FloodMeter(options.floodLimit ?? DEFAULT_FLOOD_LIMIT, (bytes) =>
      this.#fail(
        lspError(
          LSP_ERROR.flood,
          `The ${this.name} language server flooded its output (${Math.round(bytes / 1_048_576)} MB in a few seconds) and was stopped.`,
        ),
      ),
    );
    this.#child.stdout?.pipe(meter);
    this.#connection = createProtocolConnection(
      new StreamMessageReader(meter),
      new StreamMessageWriter(this.#child.stdin as NodeJS.WritableStream),
      {
        error: (message) => this.#stderr.push(`[jsonrpc] ${message}\n`),
        warn: () => {},
        info: () => {},
        log: () => {},
      },
    );
    this.#connection.onError(([error]) => this.#stderr.push(`[jsonrpc] ${errorMessage(error)}\n`));
    this.#connection.onClose(() => {
      if (this.#stopping) return;
      // The process usually exits right after; its exit code makes the better message.
      setTimeout(
        () =>
          this.#fail(lspError(LSP_ERROR.crashed, `The ${this.name} language server closed its connection.`)),
        CLOSE_REPORT_DELAY_MS,
      );
    });
    this.documents = new DocumentSync(this.#connection, options.languageIdFor);
    answerServerRequests(this.#connection, {
      root: options.root,
      settings: launch.settings,
      onRegistration: (method) => this.#registeredMethods.add(method),
      onDiagnostics: (params) => this.documents.receivePushed(params),
    });
    this.#connection.listen();
  }

  /** Starts the server and completes the handshake, or fails with a clear error (and nothing left running). */
  static async start(options: LanguageServerOptions): Promise<LanguageServer> {
    const server = new LanguageServer(options);
    try {
      const result = await server.#within(
        options.startupTimeoutMs,
        `start (initialize took over ${options.startupTimeoutMs / 1000} s)`,
        (token) => server.#connection.sendRequest("initialize", server.#initializeParams(options), token),
        options.signal,
      );
      server.#capabilities = (result as InitializeResult).capabilities ?? {};
      await server.#connection.sendNotification("initialized", {});
      if (options.launch.settings !== undefined)
        await server.#connection.sendNotification("workspace/didChangeConfiguration", {
          settings: options.launch.settings,
        });
      return server;
    } catch (error) {
      await server.stop();
      if (error instanceof ToolError && error.code !== LSP_ERROR.timeout) {
        if (error.code === LSP_ERROR.crashed)
          throw lspError(LSP_ERROR.startFailed, `${error.message} (while starting: ${server.description})`);
        throw error;
      }
      throw lspError(
        LSP_ERROR.startFailed,
        `The ${server.name} language server (${server.description}) did not start: ${errorMessage(error)}`,
      );
    }
  }

  get capabilities(): ServerCapabilities {
    return this.#capabilities;
  }

  /** Set once the server crashed, hung or flooded; it is then of no further use. */
  get failure(): ToolError | undefined {
    return this.#failure;
  }

  /** The process id, for tests and diagnostics. */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Whether the server answers textDocument/diagnostic (declared, or registered later). */
  get pullsDiagnostics(): boolean {
    return this.supports("textDocument/diagnostic");
  }

  /** Whether the server offers a request method (declared at start, or registered since). */
  supports(method: string): boolean {
    const capability = CAPABILITY_OF[method];
    return (
      capability === undefined ||
      Boolean(this.#capabilities[capability]) ||
      this.#registeredMethods.has(method)
    );
  }

  onFailure(listener: (error: ToolError) => void): () => void {
    this.#failureListeners.add(listener);
    return () => this.#failureListeners.delete(listener);
  }

  /** One request, answered within the request timeout or failed; a timeout marks the server hung. */
  request<R>(
    method: string,
    params: unknown,
    signal?: AbortSignal,
    timeoutMs = this.#requestTimeoutMs,
  ): Promise<R> {
    return this.#within(
      timeoutMs,
      `${method} (no answer in ${timeoutMs / 1000} s)`,
      (token) => this.#connection.sendRequest(method, params, token) as Promise<R>,
      signal,
    );
  }

  /** Ends the server: shutdown and exit, then SIGTERM and SIGKILL to its process group if it lingers. */
  async stop(): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    const exited = new Promise<void>((resolve) => {
      if (this.#child.exitCode !== null || this.#child.signalCode !== null || this.#child.pid === undefined)
        return resolve();
      this.#child.once("exit", () => resolve());
    });
    if (!this.#failure && this.#child.pid !== undefined) {
      const source = new CancellationTokenSource();
      await settlesWithin(this.#connection.sendRequest("shutdown", undefined, source.token), STOP_STEP_MS);
      source.dispose();
      await this.#connection.sendNotification("exit").catch(() => undefined);
    }
    if (!(await settlesWithin(exited, this.#failure ? 0 : STOP_STEP_MS))) {
      this.#killGroup("SIGTERM");
      if (!(await settlesWithin(exited, STOP_STEP_MS))) this.#killGroup("SIGKILL");
    }
    this.#connection.dispose();
    this.#child.stdin?.destroy();
    this.#child.stdout?.destroy();
    this.#child.stderr?.destroy();
  }

  #initializeParams(options: LanguageServerOptions): unknown {
    const uri = pathToFileURL(options.root).href;
    return {
      processId: process.pid,
      clientInfo: { name: "keel" },
      rootPath: options.root,
      rootUri: uri,
      workspaceFolders: [{ uri, name: basename(options.root) }],
      initializationOptions: options.launch.initializationOptions,
      capabilities: CLIENT_CAPABILITIES,
    };
  }

  #stderrNote(): string {
    const tail = this.#stderr.lastLines();
    return tail ? ` Its last output:\n${tail}` : "";
  }

  /** Runs one exchange against a deadline, the caller's signal and the server's failure. */
  async #within<R>(
    timeoutMs: number,
    what: string,
    send: (token: CancellationToken) => Promise<R>,
    signal: AbortSignal | undefined,
  ): Promise<R> {
    if (this.#failure) throw this.#failure;
    if (signal?.aborted) throw new ToolError("aborted", "The call was cancelled.");
    const source = new CancellationTokenSource();
    let timer: NodeJS.Timeout | undefined;
    let unlisten = () => {};
    let onAbort = () => {};
    try {
      return await new Promise<R>((resolve, reject) => {
        timer = setTimeout(() => {
          const error = lspError(
            LSP_ERROR.timeout,
            `The ${this.name} language server did not answer ${what}; it is taken as hung and restarted on the next call.`,
          );
          reject(error);
          this.#fail(error);
        }, timeoutMs);
        unlisten = this.onFailure(reject);
        onAbort = () => {
          source.cancel();
          reject(new ToolError("aborted", "The call was cancelled."));
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        send(source.token).then(resolve, (error: unknown) =>
          reject(
            this.#failure ??
              lspError(
                LSP_ERROR.requestFailed,
                `The ${this.name} language server answered with an error: ${errorMessage(error)}`,
              ),
          ),
        );
      });
    } finally {
      clearTimeout(timer);
      unlisten();
      signal?.removeEventListener("abort", onAbort);
      source.dispose();
    }
  }

  #fail(error: ToolError): void {
    if (this.#failure || this.#stopping) return;
    this.#failure = error;
    this.#killGroup("SIGKILL");
    for (const listener of this.#failureListeners) listener(error);
    this.#failureListeners.clear();
  }

  #killGroup(signal: NodeJS.Signals): void {
    const pid = this.#child.pid;
    if (pid === undefined || this.#child.exitCode !== null) return;
    try {
      process.kill(-pid, signal);
    } catch {
      try {
        this.#child.kill(signal);
      } catch {
        // Already gone.
      }
    }
  }
}
