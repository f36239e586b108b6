// How an old_string that is not in the file exactly may still match it: tolerant strategies, each a
// generator of candidate texts from the file. The caller tries the exact text first and decides: a
// candidate is used only when it is unique and about the size of old_string. Adding a strategy is
// adding one object to the list.

export interface MatchStrategy {
  readonly name: string;
  /** What the strategy forgave, told to the model when it was used. */
  readonly forgives: string;
  /** Texts of the file that old_string may have meant. */
  candidates(content: string, oldString: string): Iterable<string>;
  /** new_string fitted to the matched text (its quote style, its indentation). */
  adapt?(newString: string, matched: string, oldString: string): string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const lineEndings: MatchStrategy = {
  name: "line-endings",
  forgives: "LF versus CRLF line breaks",
  *candidates(content, oldString) {
    if (!/[\r\n]/.test(oldString)) return;
    const pattern = escapeRegExp(oldString.replace(/\r\n/g, "\n")).replace(/\n/g, "\\r?\\n");
    for (const match of content.matchAll(new RegExp(pattern, "g"))) yield match[0];
  },
  adapt(newString, matched) {
    const plain = newString.replace(/\r\n/g, "\n");
    return matched.includes("\r\n") ? plain.replace(/\n/g, "\r\n") : plain;
  },
};

const CURLY_DOUBLE = /[\u201c\u201d\u201e\u201f]/g;
const CURLY_SINGLE = /[\u2018\u2019\u201a\u201b]/g;

function straightenQuotes(text: string): string {
  return text.replace(CURLY_DOUBLE, '"').replace(CURLY_SINGLE, "'");
}

function opensQuote(text: string, index: number): boolean {
  return index === 0 || /[\s([{<\-\u2014\u2013]/.test(text.charAt(index - 1));
}

function curlQuotes(text: string, kind: '"' | "'"): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const char = text.charAt(i);
    if (char !== kind) out += char;
    else if (kind === '"') out += opensQuote(text, i) ? "\u201c" : "\u201d";
    else out += opensQuote(text, i) ? "\u2018" : "\u2019";
  }
  return out;
}

const quotes: MatchStrategy = {
  name: "quotes",
  forgives: "curly versus straight quotes (the file's quote style was kept)",
  *candidates(content, oldString) {
    const wanted = straightenQuotes(oldString);
    const normalized = straightenQuotes(content);
    if (wanted === oldString && normalized === content) return;
    // One UTF-16 unit per quote either way, so positions in the normalized text are positions in the file.
    for (
      let i = normalized.indexOf(wanted);
      i !== -1;
      i = normalized.indexOf(wanted, i + Math.max(1, wanted.length))
    ) {
      yield content.slice(i, i + wanted.length);
    }
  },
  adapt(newString, matched, oldString) {
    let result = newString;
    for (const [kind, curly] of [
      ['"', CURLY_DOUBLE],
      ["'", CURLY_SINGLE],
    ] as const) {
      const fileCurly = new RegExp(curly.source).test(matched);
      const oldCurly = new RegExp(curly.source).test(oldString);
      if (fileCurly && !oldCurly) result = curlQuotes(result, kind);
      else if (!fileCurly && oldCurly) result = result.replace(new RegExp(curly.source, "g"), kind);
    }
    return result;
  },
};

function trimLineEnd(line: string): string {
  return line.replace(/[ \t\r]+$/, "");
}

/** Whole-line windows of the file whose lines, mapped by `key`, equal old_string's lines. */
function* lineWindows(content: string, oldString: string, key: (lines: string[]) => string[] | undefined) {
  const trailingNewline = oldString.endsWith("\n");
  const oldLines = (trailingNewline ? oldString.slice(0, -1) : oldString).split("\n");
  const wanted = key(oldLines);
  if (!wanted || wanted.every((line) => line === "")) return;
  const lines = content.split("\n");
  const first = (wanted[0] as string).trim();
  const count = oldLines.length;
  for (let i = 0; i + count <= lines.length; i++) {
    if ((lines[i] as string).trim() !== first) continue;
    if (trailingNewline && i + count >= lines.length) continue;
    const window = lines.slice(i, i + count);
    const mapped = key(window);
    if (mapped?.every((line, j) => line === wanted[j]))
      yield window.join("\n") + (trailingNewline ? "\n" : "");
  }
}

const trailingWhitespace: MatchStrategy = {
  name: "trailing-whitespace",
  forgives: "whitespace at the ends of lines",
  candidates: (content, oldString) => lineWindows(content, oldString, (lines) => lines.map(trimLineEnd)),
};

function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? "";
}

function commonIndent(lines: readonly string[]): string {
  let shortest: string | undefined;
  for (const line of lines) {
    if (line.trim() === "") continue;
    const indent = indentOf(line);
    if (shortest === undefined || indent.length < shortest.length) shortest = indent;
  }
  return shortest ?? "";
}

function dedent(lines: string[]): string[] {
  const indent = commonIndent(lines).length;
  return lines.map((line) => (line.trim() === "" ? "" : trimLineEnd(line.slice(indent))));
}

const indentation: MatchStrategy = {
  name: "indentation",
  forgives: "the block's indentation (new_string was re-indented to match the file)",
  candidates: (content, oldString) => lineWindows(content, oldString, dedent),
  adapt(newString, matched, oldString) {
    const from = commonIndent(oldString.split("\n"));
    const to = commonIndent(matched.split("\n"));
    return newString
      .split("\n")
      .map((line) => {
        if (line.trim() === "") return line;
        if (line.startsWith(from)) return to + line.slice(from.length);
        return to + line.replace(/^[ \t]+/, "");
      })
      .join("\n");
  },
};

const LINE_NUMBER_PREFIX = /^ *\d+\t/;

function stripLineNumbers(text: string): string | undefined {
  const lines = text.split("\n");
  if (!lines.every((line, i) => LINE_NUMBER_PREFIX.test(line) || (i === lines.length - 1 && line === "")))
    return undefined;
  return lines.map((line) => line.replace(LINE_NUMBER_PREFIX, "")).join("\n");
}

const lineNumberPrefixes: MatchStrategy = {
  name: "line-number-prefixes",
  forgives: "Read's line-number prefixes copied into old_string (never include them)",
  *candidates(content, oldString) {
    const stripped = stripLineNumbers(oldString);
    if (stripped !== undefined && stripped !== "" && content.includes(stripped)) yield stripped;
  },
  adapt: (newString) => stripLineNumbers(newString) ?? newString,
};

/** Tried in this order after the exact text did not match; the first with an acceptable unique match wins. */
export const TOLERANT_STRATEGIES: readonly MatchStrategy[] = [
  lineEndings,
  quotes,
  trailingWhitespace,
  indentation,
  lineNumberPrefixes,
];
