// The prompts a person sent, kept across sessions in ~/.keel/history.jsonl (one JSON object a line:
// the text, the project folder, the time). Up and Down walk this project's prompts, newest first. The
// file is private (0600), appended a line at a time, and cut back to its newest lines, atomically,
// when it grows past a limit. A file that cannot be read or written costs the history, never the session.
import { appendFileSync, chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export interface HistoryEntry {
  display: string;
  project: string;
  timestamp: number;
}

export interface PromptHistoryOptions {
  /** The history file (`~/.keel/history.jsonl`). */
  path: string;
  /** This session's project folder: only its prompts are offered. */
  project: string;
  /** Prompts of this project offered, newest first. */
  maxEntries?: number;
  /** Lines the file may hold before it is cut back to `keepLines`. */
  maxFileLines?: number;
  keepLines?: number;
  /** Told once when the file cannot be read or written. */
  onError?: (message: string) => void;
}

function parseLine(line: string): HistoryEntry | undefined {
  try {
    const value = JSON.parse(line) as Partial<HistoryEntry>;
    if (typeof value.display !== "string" || typeof value.project !== "string") return undefined;
    return { display: value.display, project: value.project, timestamp: Number(value.timestamp) || 0 };
  } catch {
    return undefined;
  }
}

export class PromptHistory {
  readonly #options: Required<Omit<PromptHistoryOptions, "onError">> & Pick<PromptHistoryOptions, "onError">;
  /** This project's prompts, oldest first. */
  readonly #entries: string[] = [];
  #fileLines = 0;
  #errorTold = false;

  constructor(options: PromptHistoryOptions) {
    this.#options = { maxEntries: 500, maxFileLines: 5000, keepLines: 2500, ...options };
    this.#load();
  }

  /** This project's prompts, newest first. */
  get entries(): readonly string[] {
    return [...this.#entries].reverse();
  }

  #fail(action: string, error: unknown): void {
    if (this.#errorTold) return;
    this.#errorTold = true;
    const reason = error instanceof Error ? error.message : String(error);
    this.#options.onError?.(`Prompt history: could not ${action} ${this.#options.path} (${reason}).`);
  }

  #load(): void {
    let text: string;
    try {
      text = readFileSync(this.#options.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") this.#fail("read", error);
      return;
    }
    const lines = text.split("\n").filter((line) => line.trim() !== "");
    this.#fileLines = lines.length;
    for (const line of lines) {
      const entry = parseLine(line);
      if (entry?.project === this.#options.project) this.#remember(entry.display);
    }
  }

  #remember(display: string): void {
    if (this.#entries.at(-1) === display) return;
    this.#entries.push(display);
    if (this.#entries.length > this.#options.maxEntries) this.#entries.shift();
  }

  /** Records a sent prompt (a repeat of the previous one is kept once). */
  add(display: string): void {
    if (display.trim() === "" || this.#entries.at(-1) === display) return;
    this.#remember(display);
    const entry: HistoryEntry = { display, project: this.#options.project, timestamp: Date.now() };
    try {
      mkdirSync(dirname(this.#options.path), { recursive: true, mode: 0o700 });
      appendFileSync(this.#options.path, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
      this.#fileLines++;
      if (this.#fileLines > this.#options.maxFileLines) this.#trim();
    } catch (error) {
      this.#fail("write", error);
    }
  }

  /** Keeps the newest lines; written to a temporary file and renamed, so a crash never halves the file. */
  #trim(): void {
    const lines = readFileSync(this.#options.path, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "");
    const kept = lines.slice(-this.#options.keepLines);
    const temporary = `${this.#options.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${kept.join("\n")}\n`, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.#options.path);
    this.#fileLines = kept.length;
  }
}
