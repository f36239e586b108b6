// A reader for sed scripts, enough to tell scripts that only print or substitute from ones that run
// commands (e), write files (w, W) or read files (r, R). A script it cannot read is not safe.

/** A file a sed script reads (r, R) or writes (w, W, s///w) by name. */
export interface SedFile {
  path: string;
  access: "read" | "write";
}

export type SedVerdict =
  | { kind: "safe" }
  | { kind: "dangerous"; command: string; reason: string; files: SedFile[] }
  | { kind: "unknown"; reason: string };

const SAFE_COMMANDS = new Set([
  "p",
  "P",
  "=",
  "l",
  "n",
  "N",
  "d",
  "D",
  "q",
  "Q",
  "g",
  "G",
  "h",
  "H",
  "x",
  "z",
  "F",
]);
const LABEL_COMMANDS = new Set(["b", "t", "T", ":"]);
const TEXT_COMMANDS = new Set(["a", "i", "c"]);
const FILE_COMMANDS: Record<string, string> = {
  e: "sed e runs a shell command",
  w: "sed w writes a file",
  W: "sed W writes a file",
  r: "sed r reads a file",
  R: "sed R reads a file",
};

class SedReader {
  readonly #script: string;
  #at = 0;

  constructor(script: string) {
    this.#script = script;
  }

  get done(): boolean {
    return this.#at >= this.#script.length;
  }

  peek(): string {
    return this.#script[this.#at] ?? "";
  }

  next(): string {
    return this.#script[this.#at++] ?? "";
  }

  skipSpace(): void {
    while (/[ \t]/.test(this.peek()) && !this.done) this.#at++;
  }

  /** Reads up to an unescaped `delimiter`; undefined when the script ends first. */
  delimited(delimiter: string): string | undefined {
    let out = "";
    while (!this.done) {
      const char = this.next();
      if (char === "\\") {
        out += char + this.next();
        continue;
      }
      if (char === delimiter) return out;
      if (char === "\n" && delimiter !== "\n") return undefined;
      out += char;
    }
    return undefined;
  }

  restOfLine(): string {
    let out = "";
    while (!this.done && this.peek() !== "\n") out += this.next();
    return out;
  }

  /**
   * A label (of `:`, b, t, T) or an exit code: GNU sed ends it at whitespace or `;` and reads what
   * follows as the next command (`:a e id` runs id). Other seds read to the end of the line; the
   * GNU reading sees every command the others see, so it is the one judged.
   */
  argument(): string {
    this.skipSpace();
    let out = "";
    while (!this.done && !/[\s;}]/.test(this.peek())) out += this.next();
    return out;
  }
}

function readAddress(reader: SedReader): boolean {
  const char = reader.peek();
  if (/[0-9]/.test(char)) {
    while (/[0-9~]/.test(reader.peek())) reader.next();
    return true;
  }
  if (char === "$") {
    reader.next();
    return true;
  }
  if (char === "/" || char === "\\") {
    reader.next();
    const delimiter = char === "\\" ? reader.next() : "/";
    if (reader.delimited(delimiter) === undefined) return false;
    while (/[IM]/.test(reader.peek())) reader.next();
    return true;
  }
  return true;
}

function readAddresses(reader: SedReader): boolean {
  if (!readAddress(reader)) return false;
  reader.skipSpace();
  if (reader.peek() === ",") {
    reader.next();
    reader.skipSpace();
    if (reader.peek() === "+" || reader.peek() === "~") reader.next();
    if (!readAddress(reader)) return false;
  }
  reader.skipSpace();
  if (reader.peek() === "!") reader.next();
  reader.skipSpace();
  return true;
}

function readSubstitute(reader: SedReader, command: string): SedVerdict | undefined {
  const delimiter = reader.next();
  if (delimiter === "" || delimiter === "\n" || delimiter === "\\")
    return { kind: "unknown", reason: `sed ${command} without a delimiter` };
  if (reader.delimited(delimiter) === undefined || reader.delimited(delimiter) === undefined)
    return { kind: "unknown", reason: `sed ${command} is not terminated` };
  if (command === "y") return undefined;
  while (!reader.done) {
    const flag = reader.peek();
    if (/[gpiImM0-9]/.test(flag)) {
      reader.next();
      continue;
    }
    if (flag === "e")
      return {
        kind: "dangerous",
        command: "s///e",
        reason: "the e flag of sed s/// runs the pattern space as a shell command",
        files: [],
      };
    if (flag === "w" || flag === "W") {
      reader.next();
      const path = reader.restOfLine().trim();
      return {
        kind: "dangerous",
        command: "s///w",
        reason: "the w flag of sed s/// writes a file",
        files: path ? [{ path, access: "write" }] : [],
      };
    }
    break;
  }
  return undefined;
}

/** Reads a whole sed script (the -e parts joined by newlines); every file it names is listed. */
export function judgeSedScript(script: string): SedVerdict {
  const reader = new SedReader(script);
  let danger: Extract<SedVerdict, { kind: "dangerous" }> | undefined;
  const files: SedFile[] = [];
  const note = (found: Extract<SedVerdict, { kind: "dangerous" }>) => {
    danger ??= found;
    files.push(...found.files);
  };
  for (let guard = 0; guard < 10_000 && !reader.done; guard++) {
    while (/[\s;]/.test(reader.peek()) && !reader.done) reader.next();
    if (reader.done) break;
    if (reader.peek() === "#") {
      reader.restOfLine();
      continue;
    }
    if (reader.peek() === "}") {
      reader.next();
      continue;
    }
    if (!readAddresses(reader)) return { kind: "unknown", reason: "a sed address is not terminated" };
    const command = reader.next();
    if (command === "{" || SAFE_COMMANDS.has(command)) {
      if (command === "q" || command === "Q" || command === "l") reader.argument();
      continue;
    }
    const fileReason = FILE_COMMANDS[command];
    if (fileReason) {
      // The file name is the rest of the line (`w out.txt; p` writes "out.txt; p").
      const rest = reader.restOfLine().trim();
      const path = command === "e" ? "" : rest;
      const access = command === "r" || command === "R" ? "read" : "write";
      note({ kind: "dangerous", command, reason: fileReason, files: path ? [{ path, access }] : [] });
      continue;
    }
    if (LABEL_COMMANDS.has(command)) {
      reader.argument();
      continue;
    }
    if (TEXT_COMMANDS.has(command)) {
      reader.restOfLine();
      continue;
    }
    if (command === "s" || command === "y") {
      const verdict = readSubstitute(reader, command);
      if (verdict?.kind === "dangerous") note(verdict);
      else if (verdict) return verdict;
      continue;
    }
    return { kind: "unknown", reason: `sed command ${JSON.stringify(command)} is not known to be safe` };
  }
  return danger ? { ...danger, files } : { kind: "safe" };
}
