// One shell word from its syntax node: the value bash would pass after quote removal, plus what the
// value depends on (expansions, globs, tilde, brace expansion, ANSI-C quoting) so callers fail closed.
import type { Node } from "web-tree-sitter";
import { parentOf } from "./tree.ts";

export interface Word {
  /** After quote removal and escapes; dynamic parts keep their source text. */
  value: string;
  /** The source text. */
  text: string;
  /** Contains an expansion or substitution: the real value is unknown until run time. */
  dynamic: boolean;
  /** Node types of the dynamic parts (simple_expansion, command_substitution, ...). */
  dynamicKinds: string[];
  quoted: boolean;
  /** Unquoted `*`, `?` or `[...]`: the shell expands it to file names. */
  glob: boolean;
  /** Unquoted leading `~`. */
  tilde: boolean;
  /** Unquoted `{a,b}` or `{1..3}`. */
  brace: boolean;
  ansiC: boolean;
  /** A node type this decoder does not know. */
  unknown: boolean;
}

/** Node types whose value bash computes when the line runs (expansions, substitutions, braces). */
export const DYNAMIC_TYPES: ReadonlySet<string> = new Set([
  "simple_expansion",
  "expansion",
  "command_substitution",
  "process_substitution",
  "arithmetic_expansion",
  "brace_expression",
]);

interface Parts {
  value: string;
  /** Unquoted source with quoted and escaped characters replaced by `_`, to find globs and braces. */
  skeleton: string;
  dynamicKinds: string[];
  quoted: boolean;
  ansiC: boolean;
  unknown: boolean;
}

/** Removes backslash escapes of an unquoted word; backslash-newline disappears. */
function decodeUnquoted(text: string): { value: string; skeleton: string } {
  let value = "";
  let skeleton = "";
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (char === "\\" && i + 1 < text.length) {
      const next = text[i + 1] as string;
      i++;
      if (next === "\n") continue;
      value += next;
      skeleton += "_";
      continue;
    }
    value += char;
    skeleton += char;
  }
  return { value, skeleton };
}

/** Inside double quotes a backslash escapes only $ ` " \ and newline. */
export function decodeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_match, char: string) => (char === "\n" ? "" : char));
}

const C_ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** The value of `$'...'`: C escapes, \xHH, \nnn, \uHHHH, \UHHHHHHHH, \cX. */
export function decodeAnsiC(body: string): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const char = body[i] as string;
    if (char !== "\\" || i + 1 >= body.length) {
      out += char;
      continue;
    }
    const next = body[i + 1] as string;
    const simple = C_ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      i++;
      continue;
    }
    const forms: Array<[RegExp, number]> = [
      [/^x([0-9a-fA-F]{1,2})/, 16],
      [/^u([0-9a-fA-F]{1,4})/, 16],
      [/^U([0-9a-fA-F]{1,8})/, 16],
      [/^([0-7]{1,3})/, 8],
    ];
    const rest = body.slice(i + 1);
    const form = forms.find(([pattern]) => pattern.test(rest));
    if (form) {
      const match = rest.match(form[0]) as RegExpMatchArray;
      const code = Number.parseInt(match[1] as string, form[1]);
      out += code <= 0x10ffff ? String.fromCodePoint(code) : "";
      i += match[0].length;
      continue;
    }
    if (next === "c" && i + 2 < body.length) {
      out += String.fromCharCode((body.charCodeAt(i + 2) & 0x1f) >>> 0);
      i += 2;
      continue;
    }
    out += `\\${next}`;
    i++;
  }
  return out;
}

function emptyParts(): Parts {
  return { value: "", skeleton: "", dynamicKinds: [], quoted: false, ansiC: false, unknown: false };
}

function append(into: Parts, part: Parts): void {
  into.value += part.value;
  into.skeleton += part.skeleton;
  into.dynamicKinds.push(...part.dynamicKinds);
  into.quoted ||= part.quoted;
  into.ansiC ||= part.ansiC;
  into.unknown ||= part.unknown;
}

/**
 * `"$(cat <<'EOF' ... EOF)"`, the usual way to pass a multi-line message, is literal text: a quoted
 * `$(...)` holding only `cat` and one heredoc without expansions. Its value is the body.
 */
export function heredocLiteral(node: Node): string | undefined {
  if (
    node.type !== "command_substitution" ||
    !node.text.startsWith("$(") ||
    parentOf(node)?.type !== "string"
  )
    return undefined;
  const inner = node.namedChildren.filter((child) => child !== null && child.type !== "comment");
  const statement = inner[0];
  if (inner.length !== 1 || statement?.type !== "redirected_statement") return undefined;
  const body = statement.childForFieldName("body");
  if (body?.type !== "command" || body.text !== "cat") return undefined;
  const redirects = statement.namedChildren.filter((child) => child !== null && child.id !== body.id);
  const heredoc = redirects[0];
  if (redirects.length !== 1 || heredoc?.type !== "heredoc_redirect") return undefined;
  let start = "";
  let text = "";
  for (const child of heredoc.children) {
    if (!child) continue;
    if (child.type === "heredoc_start") start = child.text;
    else if (child.type === "heredoc_body") {
      if (child.namedChildren.some((part) => part !== null && part.type !== "heredoc_content"))
        return undefined;
      text = child.text;
    } else if (child.type !== "<<" && child.type !== "heredoc_end") return undefined;
  }
  if (!/^(['"]).+\1$/.test(start) && /[$`\\]/.test(text)) return undefined;
  return text.replace(/\n+$/, "");
}

/** Double-quoted string: literal slices between the expansion children, decoded. */
function stringParts(node: Node, source: string): Parts {
  const parts = emptyParts();
  parts.quoted = true;
  const start = node.startIndex + (node.text.startsWith('$"') ? 2 : 1);
  const end = node.endIndex - 1;
  let cursor = start;
  for (const child of node.namedChildren) {
    if (!child || child.type === "string_content") continue;
    parts.value += decodeDoubleQuoted(source.slice(cursor, child.startIndex));
    const literal = heredocLiteral(child);
    parts.value += literal ?? child.text;
    if (literal !== undefined) {
      cursor = child.endIndex;
      continue;
    }
    if (DYNAMIC_TYPES.has(child.type)) parts.dynamicKinds.push(child.type);
    else parts.unknown = true;
    cursor = child.endIndex;
  }
  parts.value += decodeDoubleQuoted(source.slice(cursor, Math.max(cursor, end)));
  parts.skeleton = "_".repeat(Math.max(1, parts.value.length));
  return parts;
}

function nodeParts(node: Node, source: string): Parts {
  const parts = emptyParts();
  switch (node.type) {
    case "word":
    case "number":
    case "variable_name": {
      const decoded = decodeUnquoted(node.text);
      parts.value = decoded.value;
      parts.skeleton = decoded.skeleton;
      return parts;
    }
    case "$":
    case "==":
    case "=~":
      parts.value = node.text;
      parts.skeleton = node.text;
      return parts;
    case "raw_string":
      parts.value = node.text.slice(1, -1);
      parts.skeleton = "_".repeat(Math.max(1, parts.value.length));
      parts.quoted = true;
      return parts;
    case "ansi_c_string":
      parts.value = decodeAnsiC(node.text.slice(2, -1));
      parts.skeleton = "_".repeat(Math.max(1, parts.value.length));
      parts.quoted = true;
      parts.ansiC = true;
      return parts;
    case "string":
    case "translated_string":
      return stringParts(node, source);
    case "concatenation":
      for (const child of node.children) if (child) append(parts, nodeParts(child, source));
      return parts;
    default:
      parts.value = node.text;
      parts.skeleton = "_";
      if (DYNAMIC_TYPES.has(node.type)) parts.dynamicKinds.push(node.type);
      else parts.unknown = true;
      return parts;
  }
}

const GLOB = /[*?]|\[[^\]]*\]/;
const BRACE = /\{[^{}\s]*(,|\.\.)[^{}\s]*\}/;

export function decodeWord(node: Node, source: string): Word {
  const parts = nodeParts(node, source);
  if (node.type === "translated_string") parts.unknown = true;
  return {
    value: parts.value,
    text: node.text,
    dynamic: parts.dynamicKinds.length > 0,
    dynamicKinds: parts.dynamicKinds,
    quoted: parts.quoted,
    glob: GLOB.test(parts.skeleton),
    tilde: parts.skeleton.startsWith("~"),
    brace: BRACE.test(parts.skeleton) || parts.dynamicKinds.includes("brace_expression"),
    ansiC: parts.ansiC,
    unknown: parts.unknown,
  };
}

/** A word known to be exactly `value` (synthesised, e.g. a heredoc delimiter). */
export function literalWord(value: string): Word {
  return {
    value,
    text: value,
    dynamic: false,
    dynamicKinds: [],
    quoted: false,
    glob: false,
    tilde: false,
    brace: false,
    ansiC: false,
    unknown: false,
  };
}
