// A strict JSON parser that remembers where every value starts, so a settings error can name the
// file, line and column of the bad value — JSON.parse reports neither for shape errors. The value comes
// from JSON.parse (about 30 times faster); the positions are worked out only when a problem needs one.

export interface SourcePosition {
  line: number;
  column: number;
  offset: number;
}

export class JsonSyntaxError extends Error {
  readonly position: SourcePosition;

  constructor(message: string, position: SourcePosition) {
    super(message);
    this.name = "JsonSyntaxError";
    this.position = position;
  }
}

export interface ParsedJson {
  value: unknown;
  /** Where the value at a path begins; the key is the path joined with "\u0000". */
  positions: Map<string, SourcePosition>;
  /** Where the property name of an object member begins (same keys as `positions`). */
  keyPositions: Map<string, SourcePosition>;
}

export function pathKey(path: readonly PropertyKey[]): string {
  return path.map(String).join("\u0000");
}

/** The position of the deepest existing value along `path` (the file start when none). */
export function positionOf(parsed: ParsedJson, path: readonly PropertyKey[]): SourcePosition {
  for (let length = path.length; length >= 0; length--) {
    const found = parsed.positions.get(pathKey(path.slice(0, length)));
    if (found) return found;
  }
  return { line: 1, column: 1, offset: 0 };
}

/** Where the property name at `path` is written (the value's position when it has no name). */
export function keyPositionOf(parsed: ParsedJson, path: readonly PropertyKey[]): SourcePosition {
  return parsed.keyPositions.get(pathKey(path)) ?? positionOf(parsed, path);
}

/** Parsed text, with positions worked out by the strict parser on first use (and kept). */
class LazyParsedJson implements ParsedJson {
  readonly value: unknown;
  readonly #text: string;
  #located: ParsedJson | undefined;

  constructor(text: string, value: unknown) {
    this.#text = text;
    this.value = value;
  }

  get positions(): Map<string, SourcePosition> {
    return this.#locate().positions;
  }

  get keyPositions(): Map<string, SourcePosition> {
    return this.#locate().keyPositions;
  }

  #locate(): ParsedJson {
    if (!this.#located) {
      try {
        this.#located = new Parser(this.#text).parseDocument();
      } catch {
        // Both parsers read JSON alike; should they ever differ, a problem is placed at the file's start.
        this.#located = { value: this.value, positions: new Map(), keyPositions: new Map() };
      }
    }
    return this.#located;
  }
}

export function parseJsonWithPositions(text: string): ParsedJson {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    // The strict parser says where and why (JSON.parse's messages name neither line nor column).
    return new Parser(text).parseDocument();
  }
  return new LazyParsedJson(text, value);
}

const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

class Parser {
  readonly #text: string;
  #index = 0;
  readonly #positions = new Map<string, SourcePosition>();
  readonly #keyPositions = new Map<string, SourcePosition>();
  readonly #lineStarts: number[] = [0];

  constructor(text: string) {
    // A byte-order mark is not content.
    this.#text = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    for (let i = 0; i < this.#text.length; i++) if (this.#text[i] === "\n") this.#lineStarts.push(i + 1);
  }

  parseDocument(): ParsedJson {
    this.#skipWhitespace();
    if (this.#index >= this.#text.length) this.#fail("the file is empty; write {} for no settings");
    const value = this.#parseValue([]);
    this.#skipWhitespace();
    if (this.#index < this.#text.length)
      this.#fail(`unexpected ${this.#describeHere()} after the end of the JSON value`);
    return { value, positions: this.#positions, keyPositions: this.#keyPositions };
  }

  #position(offset = this.#index): SourcePosition {
    // Binary search over line starts: the last start at or before offset.
    let low = 0;
    let high = this.#lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.#lineStarts[mid] as number) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - (this.#lineStarts[low] as number) + 1, offset };
  }

  #fail(message: string, offset = this.#index): never {
    throw new JsonSyntaxError(message, this.#position(offset));
  }

  #describeHere(): string {
    if (this.#index >= this.#text.length) return "end of file";
    return `character ${JSON.stringify(this.#text[this.#index])}`;
  }

  #skipWhitespace(): void {
    while (this.#index < this.#text.length && " \t\n\r".includes(this.#text[this.#index] as string))
      this.#index++;
    const next = this.#text.slice(this.#index, this.#index + 2);
    if (next === "//" || next === "/*") this.#fail("comments are not allowed in JSON settings files");
  }

  #parseValue(path: PropertyKey[]): unknown {
    this.#skipWhitespace();
    this.#positions.set(pathKey(path), this.#position());
    const char = this.#text[this.#index];
    if (char === "{") return this.#parseObject(path);
    if (char === "[") return this.#parseArray(path);
    if (char === '"') return this.#parseString();
    if (char === "-" || (char !== undefined && char >= "0" && char <= "9")) return this.#parseNumber();
    for (const [word, value] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (this.#text.startsWith(word, this.#index)) {
        this.#index += word.length;
        return value;
      }
    }
    if (char === "'") this.#fail("strings must use double quotes");
    return this.#fail(`expected a value but found ${this.#describeHere()}`);
  }

  #parseObject(path: PropertyKey[]): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    this.#index++;
    this.#skipWhitespace();
    if (this.#text[this.#index] === "}") {
      this.#index++;
      return result;
    }
    for (;;) {
      this.#skipWhitespace();
      if (this.#text[this.#index] !== '"') {
        if (this.#text[this.#index] === "}") this.#fail("trailing comma before '}'");
        this.#fail(`expected a property name in double quotes but found ${this.#describeHere()}`);
      }
      const keyPosition = this.#position();
      const key = this.#parseString();
      this.#keyPositions.set(pathKey([...path, key]), keyPosition);
      this.#skipWhitespace();
      if (this.#text[this.#index] !== ":") this.#fail(`expected ':' after property "${key}"`);
      this.#index++;
      const value = this.#parseValue([...path, key]);
      Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
      this.#skipWhitespace();
      const next = this.#text[this.#index];
      this.#index++;
      if (next === "}") return result;
      if (next !== ",")
        this.#fail(
          `expected ',' or '}' but found ${next === undefined ? "end of file" : JSON.stringify(next)}`,
          this.#index - 1,
        );
    }
  }

  #parseArray(path: PropertyKey[]): unknown[] {
    const result: unknown[] = [];
    this.#index++;
    this.#skipWhitespace();
    if (this.#text[this.#index] === "]") {
      this.#index++;
      return result;
    }
    for (;;) {
      this.#skipWhitespace();
      if (this.#text[this.#index] === "]") this.#fail("trailing comma before ']'");
      result.push(this.#parseValue([...path, result.length]));
      this.#skipWhitespace();
      const next = this.#text[this.#index];
      this.#index++;
      if (next === "]") return result;
      if (next !== ",")
        this.#fail(
          `expected ',' or ']' but found ${next === undefined ? "end of file" : JSON.stringify(next)}`,
          this.#index - 1,
        );
    }
  }

  #parseString(): string {
    const start = this.#index;
    this.#index++;
    let result = "";
    for (;;) {
      const char = this.#text[this.#index];
      if (char === undefined) this.#fail("unterminated string", start);
      if (char === '"') {
        this.#index++;
        return result;
      }
      if (char < " ") this.#fail("control character inside a string (escape it, e.g. \\n)");
      if (char === "\\") {
        const escaped = this.#text[this.#index + 1];
        if (escaped === "u") {
          const hex = this.#text.slice(this.#index + 2, this.#index + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.#fail("invalid \\u escape");
          result += String.fromCharCode(Number.parseInt(hex, 16));
          this.#index += 6;
          continue;
        }
        const mapped = escaped === undefined ? undefined : ESCAPES[escaped];
        if (mapped === undefined) this.#fail(`invalid escape \\${escaped ?? ""}`);
        result += mapped;
        this.#index += 2;
        continue;
      }
      result += char;
      this.#index++;
    }
  }

  #parseNumber(): number {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(
      this.#text.slice(this.#index, this.#index + 400),
    );
    if (!match) this.#fail("invalid number");
    this.#index += match[0].length;
    return Number(match[0]);
  }
}
