// The errors an edit introduced, from the file's language server when one is running or starting
// (hosts that set `startOnFileUse` start it when a file of its language is first read or edited): the
// server is shown the text before and after the edit, and only errors not there before are reported
// (matched by message, code and the text of their line, so errors that merely moved are not new).
// Bounded by a time budget: an edit never waits long, and a slow server means no report, not a slow edit.
import type { Diagnostic } from "vscode-languageserver-protocol";
import { workingDirectoryOf } from "../permissions/paths.ts";
import type { ToolUseContext } from "../tool/context.ts";
import type { SyncedDocument } from "./documentSync.ts";
import type { LanguageServer } from "./languageServer.ts";
import {
  lspOptionsOf,
  runningServerForFile,
  startingServerForFile,
  warmServerForFile,
} from "./sessionServers.ts";

export const DEFAULT_DIAGNOSTICS_BUDGET_MS = 2_000;
/** Most new errors listed after an edit. */
export const MAX_REPORTED_ERRORS = 10;

const ERROR_SEVERITY = 1;

export interface NewErrors {
  server: string;
  /** Every new error (the report lists the first few). */
  errors: Array<{ diagnostic: Diagnostic; line: string }>;
}

/** Diagnostics for the document as synced, or undefined when they did not come within the signal's time. */
async function diagnosticsOf(
  server: LanguageServer,
  document: SyncedDocument,
  signal: AbortSignal,
): Promise<Diagnostic[] | undefined> {
  if (!server.pullsDiagnostics) return server.documents.pushedFor(document, Number.POSITIVE_INFINITY, signal);
  try {
    const report = await server.request<{ kind: string; items?: Diagnostic[] }>(
      "textDocument/diagnostic",
      { textDocument: { uri: document.uri } },
      signal,
    );
    return report.kind === "full" ? (report.items ?? []) : undefined;
  } catch {
    return undefined;
  }
}

function lineOf(text: string, line: number): string {
  return (text.split(/\r?\n/)[line] ?? "").trim();
}

function keyOf(diagnostic: Diagnostic, text: string): string {
  return JSON.stringify([
    diagnostic.severity ?? ERROR_SEVERITY,
    diagnostic.code ?? "",
    diagnostic.source ?? "",
    diagnostic.message,
    lineOf(text, diagnostic.range.start.line),
  ]);
}

function isError(diagnostic: Diagnostic): boolean {
  return (diagnostic.severity ?? ERROR_SEVERITY) === ERROR_SEVERITY;
}

/** Errors in `after` that `before` did not have, counting repeats. */
export function introducedErrors(
  before: readonly Diagnostic[],
  beforeText: string,
  after: readonly Diagnostic[],
  afterText: string,
): Array<{ diagnostic: Diagnostic; line: string }> {
  const remaining = new Map<string, number>();
  for (const diagnostic of before.filter(isError)) {
    const key = keyOf(diagnostic, beforeText);
    remaining.set(key, (remaining.get(key) ?? 0) + 1);
  }
  const introduced: Array<{ diagnostic: Diagnostic; line: string }> = [];
  for (const diagnostic of after.filter(isError)) {
    const key = keyOf(diagnostic, afterText);
    const left = remaining.get(key) ?? 0;
    if (left > 0) remaining.set(key, left - 1);
    else introduced.push({ diagnostic, line: lineOf(afterText, diagnostic.range.start.line) });
  }
  return introduced;
}

/**
 * Starts the server of a file the session reads, so that its first edit can report new errors: only
 * where the host asks for it (`startOnFileUse`) and for files inside the working directories.
 */
export function warmServerForRead(context: ToolUseContext, path: string): void {
  if (!lspOptionsOf(context).startOnFileUse) return;
  const state = context.getAppState();
  if (workingDirectoryOf(path, state.toolPermissionContext, state.cwd) === undefined) return;
  warmServerForFile(context, path);
}

/** The promise's value, or undefined when it fails or the signal ends first. */
function settledWithin<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener("abort", onAbort, { once: true });
    promise
      .then(resolve, () => resolve(undefined))
      .finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * The errors an edit of `path` introduced, or undefined when no server for it is running or starting,
 * or it did not answer within the budget. `before` is undefined for a file the edit created.
 */
export async function newErrorsAfterEdit(
  context: ToolUseContext,
  path: string,
  before: string | undefined,
  after: string,
): Promise<NewErrors | undefined> {
  const options = lspOptionsOf(context);
  const budget = AbortSignal.any([
    context.abortController.signal,
    AbortSignal.timeout(options.diagnosticsBudgetMs ?? DEFAULT_DIAGNOSTICS_BUDGET_MS),
  ]);
  let server = runningServerForFile(context, path);
  if (!server) {
    const starting = startingServerForFile(context, path);
    if (!starting) {
      if (options.startOnFileUse) warmServerForFile(context, path);
      return undefined;
    }
    // Started by an earlier read or edit of this language: worth the wait, within the same budget.
    server = await settledWithin(starting, budget);
    if (!server || server.failure) return undefined;
  }
  let baseline: Diagnostic[] = [];
  if (before !== undefined && before !== "") {
    const known = await diagnosticsOf(server, server.documents.sync(path, before), budget);
    if (!known) return undefined;
    baseline = known;
  }
  const current = await diagnosticsOf(server, server.documents.sync(path, after), budget);
  if (!current) return undefined;
  return { server: server.name, errors: introducedErrors(baseline, before ?? "", current, after) };
}

/** The note appended to an edit's result, or undefined when the edit introduced no error. */
export function formatNewErrors(displayPath: string, found: NewErrors | undefined): string | undefined {
  if (!found || found.errors.length === 0) return undefined;
  const count = found.errors.length;
  const lines = found.errors.slice(0, MAX_REPORTED_ERRORS).map(({ diagnostic, line }, index) => {
    const where = `${diagnostic.range.start.line + 1}:${diagnostic.range.start.character + 1}`;
    const code =
      diagnostic.code !== undefined
        ? ` [${diagnostic.source ?? ""}${diagnostic.source ? " " : ""}${diagnostic.code}]`
        : "";
    const text = typeof diagnostic.message === "string" ? diagnostic.message : diagnostic.message.value;
    const message = text.replace(/\s*\n\s*/g, " ");
    return `${index + 1}. ${where} ${message}${code}${line ? `  \`${line.slice(0, 160)}\`` : ""}`;
  });
  const more = count > MAX_REPORTED_ERRORS ? [`(${count - MAX_REPORTED_ERRORS} more not shown)`] : [];
  return [
    "<new-diagnostics>",
    `This edit introduced ${count} error${count === 1 ? "" : "s"} in ${displayPath} (${found.server} language server):`,
    ...lines,
    ...more,
    "</new-diagnostics>",
  ].join("\n");
}
