// Results as the model reads them: short numbered `path:line:col` lists with the line of source, capped
// with a note. Lines of files outside the working directories are not shown (the location is); files
// that Read rules deny are left out entirely, and the model is told how many were.
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, relative, sep } from "node:path";
import type { Position } from "vscode-languageserver-protocol";
import type { CallEntry, LspOperation, OperationResult, Place, SymbolEntry } from "./operations.ts";

/** Most entries listed; beyond it a note tells how many more there are. */
export const MAX_LISTED = 50;
const MAX_SOURCE_CHARS = 160;
const MAX_HOVER_CHARS = 4_000;
const MAX_SOURCE_FILE_BYTES = 4 * 1024 * 1024;

export interface FormatScope {
  cwd: string;
  /** Whether a file's lines may be shown (inside the working directories, not denied). */
  mayShowLines(path: string): boolean;
  /** Whether Read rules deny the file: its results are left out. */
  isDenied(path: string): boolean;
}

export interface FormatRequest {
  operation: LspOperation;
  path: string;
  position: Position;
  query: string;
}

const SYMBOL_KINDS = [
  "",
  "file",
  "module",
  "namespace",
  "package",
  "class",
  "method",
  "property",
  "field",
  "constructor",
  "enum",
  "interface",
  "function",
  "variable",
  "constant",
  "string",
  "number",
  "boolean",
  "array",
  "object",
  "key",
  "null",
  "enum member",
  "struct",
  "event",
  "operator",
  "type parameter",
];

function kindName(kind: number): string {
  return SYMBOL_KINDS[kind] || "symbol";
}

class SourceLines {
  readonly #files = new Map<string, string[] | undefined>();
  readonly #scope: FormatScope;

  constructor(scope: FormatScope) {
    this.#scope = scope;
  }

  line(path: string, line: number): string | undefined {
    if (!this.#files.has(path)) this.#files.set(path, this.#read(path));
    const text = this.#files.get(path)?.[line];
    if (text === undefined) return undefined;
    const trimmed = text.trim();
    return trimmed.length > MAX_SOURCE_CHARS ? `${trimmed.slice(0, MAX_SOURCE_CHARS)}…` : trimmed;
  }

  #read(path: string): string[] | undefined {
    if (!this.#scope.mayShowLines(path)) return undefined;
    try {
      if (statSync(path).size > MAX_SOURCE_FILE_BYTES) return undefined;
      return readFileSync(path, "utf8").split(/\r?\n/);
    } catch {
      return undefined;
    }
  }
}

function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel.split(sep).join("/") : path;
}

function at(place: Place, cwd: string): string {
  return `${displayPath(place.path, cwd)}:${place.range.start.line + 1}:${place.range.start.character + 1}`;
}

function withSource(head: string, source: string | undefined): string {
  return source ? `${head}  ${source}` : head;
}

function cappedList(lines: string[], hint: string): string[] {
  if (lines.length <= MAX_LISTED) return lines;
  return [
    ...lines.slice(0, MAX_LISTED),
    `(${lines.length - MAX_LISTED} more not shown, ${lines.length} in all. ${hint})`,
  ];
}

/** The word the position falls on, to tell the model what it pointed at when nothing was found. */
function pointedAt(request: FormatRequest, sources: SourceLines): string {
  const where = `${request.position.line + 1}:${request.position.character + 1}`;
  const line = sources.line(request.path, request.position.line);
  if (line === undefined) return `at ${where}`;
  let raw: string;
  try {
    raw = readFileSync(request.path, "utf8").split(/\r?\n/)[request.position.line] ?? "";
  } catch {
    return `at ${where}`;
  }
  const index = request.position.character;
  const word = /[\p{L}\p{N}_$]/u;
  if (index >= raw.length || !word.test(raw[index] ?? ""))
    return `at ${where}, which is not on an identifier (line: \`${line}\`). Give the character of the symbol's first letter`;
  let start = index;
  let end = index;
  while (start > 0 && word.test(raw[start - 1] ?? "")) start--;
  while (end < raw.length && word.test(raw[end] ?? "")) end++;
  return `at ${where} (on \`${raw.slice(start, end)}\`)`;
}

const NOUN: Record<LspOperation, string> = {
  goToDefinition: "definition",
  findReferences: "reference",
  hover: "hover",
  documentSymbol: "symbol",
  workspaceSymbol: "symbol",
  goToImplementation: "implementation",
  prepareCallHierarchy: "call hierarchy item",
  incomingCalls: "caller",
  outgoingCalls: "callee",
};

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : noun.endsWith("s") ? "es" : "s"}`;
}

function fileCount(places: Place[]): string {
  const files = new Set(places.map((place) => place.path)).size;
  return files > 1 ? ` in ${files} files` : "";
}

function symbolLine(
  symbol: SymbolEntry,
  index: number,
  showPath: boolean,
  cwd: string,
  sources: SourceLines,
): string {
  const indent = "  ".repeat(symbol.depth);
  const where = showPath
    ? at(symbol.place, cwd)
    : `${symbol.place.range.start.line + 1}:${symbol.place.range.start.character + 1}`;
  const container = symbol.container ? ` in ${symbol.container}` : "";
  const detail = symbol.detail ? ` — ${symbol.detail.replace(/\s+/g, " ").slice(0, MAX_SOURCE_CHARS)}` : "";
  const head = `${index + 1}. ${indent}${symbol.name} (${kindName(symbol.kind)}) ${where}${container}${detail}`;
  return showPath ? withSource(head, sources.line(symbol.place.path, symbol.place.range.start.line)) : head;
}

function callLine(
  call: CallEntry,
  index: number,
  operation: LspOperation,
  cwd: string,
  sources: SourceLines,
): string {
  const name = `${call.name} (${kindName(call.kind)})`;
  if (operation === "incomingCalls") {
    const site = call.callSites[0] ?? call.place;
    const more = call.callSites.length > 1 ? ` (+${call.callSites.length - 1} more calls)` : "";
    return withSource(
      `${index + 1}. ${name} calls it at ${at(site, cwd)}${more}`,
      sources.line(site.path, site.range.start.line),
    );
  }
  const defined = withSource(
    `${index + 1}. ${name} ${at(call.place, cwd)}`,
    sources.line(call.place.path, call.place.range.start.line),
  );
  if (operation !== "outgoingCalls") return defined;
  const sites = [
    ...new Set(
      call.callSites.map((site) => `${site.range.start.line + 1}:${site.range.start.character + 1}`),
    ),
  ];
  return sites.length > 0 ? `${defined}  [called at ${sites.join(", ")}]` : defined;
}

export interface FormattedResult {
  text: string;
  /** Entries found (before the cap, after leaving out denied files). */
  count: number;
}

/** The model-facing text of one operation's result. */
export function formatResult(
  result: OperationResult,
  request: FormatRequest,
  scope: FormatScope,
): FormattedResult {
  const sources = new SourceLines(scope);
  const { cwd } = scope;
  const file = displayPath(request.path, cwd);
  const noun = NOUN[request.operation];
  const hidden = { count: 0 };
  const visible = <T>(items: T[], placeOf: (item: T) => Place): T[] =>
    items.filter((item) => {
      const denied = scope.isDenied(placeOf(item).path);
      if (denied) hidden.count++;
      return !denied;
    });
  const deniedNote = () =>
    hidden.count > 0
      ? [`(${plural(hidden.count, "result")} in files that Read rules deny are not shown.)`]
      : [];

  let lines: string[];
  let count: number;
  switch (result.kind) {
    case "hover": {
      if (result.withheld) {
        count = 0;
        lines = [
          `No hover shown: the symbol ${pointedAt(request, sources)} is defined in a file that Read rules deny (or its definition could not be checked).`,
        ];
        break;
      }
      count = result.text ? 1 : 0;
      const text =
        result.text.length > MAX_HOVER_CHARS
          ? `${result.text.slice(0, MAX_HOVER_CHARS)}\n…(cut)`
          : result.text;
      lines = count
        ? [`Hover in ${file} ${pointedAt(request, sources)}:`, text]
        : [`No hover information in ${file} ${pointedAt(request, sources)}.`];
      break;
    }
    case "locations": {
      const places = visible(result.places, (place) => place);
      count = places.length;
      lines =
        count === 0
          ? [`No ${noun} found in ${file} ${pointedAt(request, sources)}.`]
          : [
              `Found ${plural(count, noun)}${fileCount(places)}:`,
              ...cappedList(
                places.map((place, index) =>
                  withSource(
                    `${index + 1}. ${at(place, cwd)}`,
                    sources.line(place.path, place.range.start.line),
                  ),
                ),
                "Use Grep to narrow it down, or look at one file at a time.",
              ),
            ];
      break;
    }
    case "symbols": {
      const symbols = visible(result.symbols, (symbol) => symbol.place);
      count = symbols.length;
      const workspace = request.operation === "workspaceSymbol";
      const heading = workspace
        ? `Found ${plural(count, noun)} matching "${request.query}"${fileCount(symbols.map((symbol) => symbol.place))}:`
        : `${plural(count, noun)} in ${file}:`;
      lines =
        count === 0
          ? [workspace ? `No symbols match "${request.query}".` : `No symbols in ${file}.`]
          : [
              heading,
              ...cappedList(
                symbols.map((symbol, index) => symbolLine(symbol, index, workspace, cwd, sources)),
                workspace ? "Use a longer query." : "Read the file in parts to see the rest.",
              ),
            ];
      break;
    }
    case "calls": {
      const calls = visible(result.calls, (call) => call.place);
      count = calls.length;
      lines =
        count === 0
          ? [`No ${noun} found in ${file} ${pointedAt(request, sources)}.`]
          : [
              `Found ${plural(count, noun)}:`,
              ...cappedList(
                calls.map((call, index) => callLine(call, index, request.operation, cwd, sources)),
                "Look at one caller at a time.",
              ),
            ];
      break;
    }
  }
  return { text: [...lines, ...deniedNote()].join("\n"), count };
}
