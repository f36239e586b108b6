// The documents a server has open and what it was told they contain. Every operation first syncs the
// file (from disk, or the text an edit just wrote), so the server never answers about stale text.
// Diagnostics a server pushes are kept per document, with the version they are for.
import { pathToFileURL } from "node:url";
import type { Diagnostic, PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import type { ProtocolConnection } from "vscode-languageserver-protocol/node";

interface OpenDocument {
  uri: string;
  version: number;
  text: string;
}

interface Pushed {
  version: number | undefined;
  diagnostics: Diagnostic[];
  /** Arrival order, for servers that do not say which version they are for. */
  seq: number;
}

interface Waiter {
  uri: string;
  version: number;
  afterSeq: number;
  resolve(diagnostics: Diagnostic[]): void;
}

export interface SyncedDocument {
  uri: string;
  version: number;
  /** Publications received before this sync; a later one is about this text. */
  seq: number;
}

/** Open documents beyond this are closed, least recently used first (servers work on every open file). */
const MAX_OPEN_DOCUMENTS = 64;

export class DocumentSync {
  readonly #connection: ProtocolConnection;
  readonly #languageIdFor: (path: string) => string;
  readonly #open = new Map<string, OpenDocument>();
  readonly #pushed = new Map<string, Pushed>();
  readonly #waiters = new Set<Waiter>();
  #seq = 0;

  constructor(connection: ProtocolConnection, languageIdFor: (path: string) => string) {
    this.#connection = connection;
    this.#languageIdFor = languageIdFor;
  }

  /** Tells the server the file's text: didOpen the first time, didChange when it differs. */
  sync(path: string, text: string): SyncedDocument {
    const open = this.#open.get(path);
    if (open) {
      this.#open.delete(path);
      this.#open.set(path, open);
      if (open.text !== text) {
        open.version++;
        open.text = text;
        void this.#connection
          .sendNotification("textDocument/didChange", {
            textDocument: { uri: open.uri, version: open.version },
            contentChanges: [{ text }],
          })
          .catch(() => {});
      }
      return { uri: open.uri, version: open.version, seq: this.#seq };
    }
    const uri = pathToFileURL(path).href;
    const document: OpenDocument = { uri, version: 1, text };
    this.#open.set(path, document);
    void this.#connection
      .sendNotification("textDocument/didOpen", {
        textDocument: { uri, languageId: this.#languageIdFor(path), version: 1, text },
      })
      .catch(() => {});
    this.#closeBeyondLimit();
    return { uri, version: 1, seq: this.#seq };
  }

  /** The text the server was last told for a path, if it has the file open. */
  textOf(path: string): string | undefined {
    return this.#open.get(path)?.text;
  }

  receivePushed(params: PublishDiagnosticsParams): void {
    this.#seq++;
    const pushed = { version: params.version ?? undefined, diagnostics: params.diagnostics, seq: this.#seq };
    this.#pushed.set(params.uri, pushed);
    for (const waiter of this.#waiters) {
      if (waiter.uri !== params.uri || !this.#answers(pushed, waiter)) continue;
      this.#waiters.delete(waiter);
      waiter.resolve(params.diagnostics);
    }
  }

  /** Pushed diagnostics for this version of the document, waiting up to timeoutMs; undefined if none came. */
  async pushedFor(
    document: SyncedDocument,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Diagnostic[] | undefined> {
    const waiter = { uri: document.uri, version: document.version, afterSeq: document.seq };
    const known = this.#pushed.get(document.uri);
    if (known && this.#answers(known, waiter)) return known.diagnostics;
    return new Promise<Diagnostic[] | undefined>((resolve) => {
      const finish = (value: Diagnostic[] | undefined) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.#waiters.delete(entry);
        resolve(value);
      };
      const entry: Waiter = { ...waiter, resolve: finish };
      const onAbort = () => finish(undefined);
      const timer = setTimeout(() => finish(undefined), timeoutMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiters.add(entry);
    });
  }

  #answers(pushed: Pushed, waiter: Omit<Waiter, "resolve">): boolean {
    return pushed.version !== undefined ? pushed.version >= waiter.version : pushed.seq > waiter.afterSeq;
  }

  #closeBeyondLimit(): void {
    while (this.#open.size > MAX_OPEN_DOCUMENTS) {
      const [path, oldest] = this.#open.entries().next().value as [string, OpenDocument];
      this.#open.delete(path);
      this.#pushed.delete(oldest.uri);
      void this.#connection
        .sendNotification("textDocument/didClose", { textDocument: { uri: oldest.uri } })
        .catch(() => {});
    }
  }
}
