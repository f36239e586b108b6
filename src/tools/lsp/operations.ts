// The nine operations: which LSP request each sends, and its answer brought to a few plain shapes
// (locations, symbols, hover text, call items) whatever form the server chose.
import { fileURLToPath } from "node:url";
import type {
  CallHierarchyIncomingCall,
  CallHierarchyItem,
  CallHierarchyOutgoingCall,
  DocumentSymbol,
  Hover,
  Location,
  LocationLink,
  MarkedString,
  MarkupContent,
  Position,
  Range,
  SymbolInformation,
  WorkspaceSymbol,
} from "vscode-languageserver-protocol";
import type { LanguageServer } from "../../lsp/languageServer.ts";
import { LSP_ERROR, lspError } from "../../lsp/launch.ts";

export const LSP_OPERATIONS = [
  "goToDefinition",
  "findReferences",
  "hover",
  "documentSymbol",
  "workspaceSymbol",
  "goToImplementation",
  "prepareCallHierarchy",
  "incomingCalls",
  "outgoingCalls",
] as const;

export type LspOperation = (typeof LSP_OPERATIONS)[number];

/** Operations that need no position in the file. */
export const POSITIONLESS: ReadonlySet<LspOperation> = new Set(["documentSymbol", "workspaceSymbol"]);

/** A place in a file: 0-based LSP range, file as an absolute path. */
export interface Place {
  path: string;
  range: Range;
}

export interface SymbolEntry {
  name: string;
  kind: number;
  detail?: string;
  container?: string;
  place: Place;
  depth: number;
}

export interface CallEntry {
  name: string;
  kind: number;
  detail?: string;
  /** Where the caller/callee is defined. */
  place: Place;
  /** Where the calls happen (in the caller for incoming, in the given function for outgoing). */
  callSites: Place[];
}

export type OperationResult =
  | { kind: "locations"; places: Place[] }
  | { kind: "hover"; text: string; place?: Place; withheld?: boolean }
  | { kind: "symbols"; symbols: SymbolEntry[] }
  | { kind: "calls"; calls: CallEntry[] };

const REQUEST_OF: Record<LspOperation, string> = {
  goToDefinition: "textDocument/definition",
  findReferences: "textDocument/references",
  hover: "textDocument/hover",
  documentSymbol: "textDocument/documentSymbol",
  workspaceSymbol: "workspace/symbol",
  goToImplementation: "textDocument/implementation",
  prepareCallHierarchy: "textDocument/prepareCallHierarchy",
  incomingCalls: "textDocument/prepareCallHierarchy",
  outgoingCalls: "textDocument/prepareCallHierarchy",
};

function pathOf(uri: string): string {
  return uri.startsWith("file:") ? fileURLToPath(uri) : uri;
}

function toPlaces(answer: Location | Location[] | LocationLink[] | null | undefined): Place[] {
  if (!answer) return [];
  return (Array.isArray(answer) ? answer : [answer]).map((entry) =>
    "targetUri" in entry
      ? { path: pathOf(entry.targetUri), range: entry.targetSelectionRange ?? entry.targetRange }
      : { path: pathOf(entry.uri), range: entry.range },
  );
}

function markedText(content: MarkedString | MarkupContent): string {
  if (typeof content === "string") return content;
  if ("kind" in content) return content.value;
  return `\`\`\`${content.language}\n${content.value}\n\`\`\``;
}

function hoverText(hover: Hover | null): string {
  if (!hover) return "";
  const parts = Array.isArray(hover.contents) ? hover.contents : [hover.contents];
  return parts
    .map(markedText)
    .filter((text) => text.trim() !== "")
    .join("\n\n")
    .trim();
}

function documentSymbols(answer: DocumentSymbol[] | SymbolInformation[] | null, path: string): SymbolEntry[] {
  const entries: SymbolEntry[] = [];
  const walk = (symbol: DocumentSymbol, depth: number) => {
    entries.push({
      name: symbol.name,
      kind: symbol.kind,
      ...(symbol.detail ? { detail: symbol.detail } : {}),
      place: { path, range: symbol.selectionRange },
      depth,
    });
    for (const child of symbol.children ?? []) walk(child, depth + 1);
  };
  for (const symbol of answer ?? []) {
    if ("location" in symbol) entries.push(symbolInformation(symbol));
    else walk(symbol, 0);
  }
  return entries;
}

function symbolInformation(symbol: SymbolInformation | WorkspaceSymbol): SymbolEntry {
  const location = symbol.location;
  const range =
    "range" in location
      ? location.range
      : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  return {
    name: symbol.name,
    kind: symbol.kind,
    ...(symbol.containerName ? { container: symbol.containerName } : {}),
    place: { path: pathOf(location.uri), range },
    depth: 0,
  };
}

function callEntry(item: CallHierarchyItem, callSites: Place[]): CallEntry {
  return {
    name: item.name,
    kind: item.kind,
    ...(item.detail ? { detail: item.detail } : {}),
    place: { path: pathOf(item.uri), range: item.selectionRange },
    callSites,
  };
}

export interface OperationRequest {
  operation: LspOperation;
  uri: string;
  path: string;
  position: Position;
  query: string;
  signal?: AbortSignal;
}

/** Sends the operation's request(s) and normalizes the answer. */
export async function runOperation(
  server: LanguageServer,
  request: OperationRequest,
): Promise<OperationResult> {
  const { operation, uri, position, signal } = request;
  const method = REQUEST_OF[operation];
  if (!server.supports(method))
    throw lspError(
      LSP_ERROR.requestFailed,
      `The ${server.name} language server (${server.description}) does not support ${operation}.`,
    );
  const at = { textDocument: { uri }, position };
  switch (operation) {
    case "goToDefinition":
    case "goToImplementation":
      return { kind: "locations", places: toPlaces(await server.request(method, at, signal)) };
    case "findReferences":
      return {
        kind: "locations",
        places: toPlaces(
          await server.request(method, { ...at, context: { includeDeclaration: true } }, signal),
        ),
      };
    case "hover": {
      const hover = await server.request<Hover | null>(method, at, signal);
      const text = hoverText(hover);
      return hover?.range
        ? { kind: "hover", text, place: { path: request.path, range: hover.range } }
        : { kind: "hover", text };
    }
    case "documentSymbol":
      return {
        kind: "symbols",
        symbols: documentSymbols(
          await server.request(method, { textDocument: { uri } }, signal),
          request.path,
        ),
      };
    case "workspaceSymbol": {
      const answer = await server.request<Array<SymbolInformation | WorkspaceSymbol> | null>(
        method,
        { query: request.query },
        signal,
      );
      return { kind: "symbols", symbols: (answer ?? []).map(symbolInformation) };
    }
    default:
      return { kind: "calls", calls: await callHierarchy(server, operation, at, signal) };
  }
}

async function callHierarchy(
  server: LanguageServer,
  operation: LspOperation,
  at: { textDocument: { uri: string }; position: Position },
  signal: AbortSignal | undefined,
): Promise<CallEntry[]> {
  const items =
    (await server.request<CallHierarchyItem[] | null>("textDocument/prepareCallHierarchy", at, signal)) ?? [];
  if (operation === "prepareCallHierarchy") return items.map((item) => callEntry(item, []));
  const calls: CallEntry[] = [];
  for (const item of items) {
    if (operation === "incomingCalls") {
      const incoming =
        (await server.request<CallHierarchyIncomingCall[] | null>(
          "callHierarchy/incomingCalls",
          { item },
          signal,
        )) ?? [];
      for (const call of incoming)
        calls.push(
          callEntry(
            call.from,
            call.fromRanges.map((range) => ({ path: pathOf(call.from.uri), range })),
          ),
        );
    } else {
      const outgoing =
        (await server.request<CallHierarchyOutgoingCall[] | null>(
          "callHierarchy/outgoingCalls",
          { item },
          signal,
        )) ?? [];
      for (const call of outgoing)
        calls.push(
          callEntry(
            call.to,
            call.fromRanges.map((range) => ({ path: pathOf(item.uri), range })),
          ),
        );
    }
  }
  return calls;
}
