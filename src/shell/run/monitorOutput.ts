// Waiting on a background task's output: new complete lines are read as the task writes them and
// tested against a pattern, until a line matches, the task ends or the time is up. Each task keeps
// the position the last wait stopped at, so a later wait looks only at what came after it.
import { open } from "node:fs/promises";
import { type BackgroundTaskInfo, watchBackgroundTask } from "./background.ts";
import { cleanTerminalText } from "./output.ts";

/** Lines longer than this are cut before matching: output is untrusted, patterns may backtrack. */
const MAX_LINE_CHARS = 2_000;
const MAX_MATCHES = 100;
const TAIL_LINES = 10;
/** Bytes read per look at the file; more output waits for the next look. */
const READ_CHUNK_BYTES = 1 << 20;

export type MonitorStop = "matched" | "exited" | "timeout" | "aborted";

export interface MonitorMatch {
  /** 1-based line number in the task's output. */
  line: number;
  text: string;
}

export interface MonitorResult {
  task: BackgroundTaskInfo;
  stoppedBecause: MonitorStop;
  matches: MonitorMatch[];
  /** The last lines looked at, for a wait that ended without a match. */
  tail: string[];
  linesScanned: number;
}

interface Position {
  offset: number;
  line: number;
}

const positions = new Map<string, Position>();
const positionKey = (sessionId: string, taskId: string) => `${sessionId}\u0000${taskId}`;

export interface MonitorOptions {
  pattern: RegExp;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Time between looks at the output file (default 100 ms). */
  pollMs?: number;
}

interface OutputLine {
  text: string;
  /** Where the next line starts in the file. */
  nextOffset: number;
}

/** The complete lines written since `offset` (the unfinished last one too, once the task has ended). */
async function readLines(path: string, offset: number, final: boolean): Promise<OutputLine[]> {
  const handle = await open(path, "r").catch(() => undefined);
  if (!handle) return [];
  try {
    const buffer = Buffer.alloc(READ_CHUNK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, READ_CHUNK_BYTES, offset);
    const lines: OutputLine[] = [];
    let start = 0;
    while (start < bytesRead) {
      const newline = buffer.indexOf(0x0a, start);
      const whole = newline !== -1 && newline < bytesRead;
      if (!whole && !(final && bytesRead < READ_CHUNK_BYTES)) break;
      const end = whole ? newline : bytesRead;
      const text = cleanTerminalText(buffer.subarray(start, end).toString("utf8"));
      start = whole ? newline + 1 : bytesRead;
      lines.push({ text, nextOffset: offset + start });
    }
    return lines;
  } finally {
    await handle.close();
  }
}

function pause(ms: number, ended: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
    ended.then(done, done);
  });
}

/** Waits on a task's output; undefined when the session has no such task. */
export async function monitorTaskOutput(
  sessionId: string,
  taskId: string,
  options: MonitorOptions,
): Promise<MonitorResult | undefined> {
  const watched = watchBackgroundTask(sessionId, taskId);
  if (!watched) return undefined;
  const key = positionKey(sessionId, taskId);
  const position = positions.get(key) ?? { offset: 0, line: 0 };
  positions.set(key, position);
  const deadline = Date.now() + options.timeoutMs;
  const tail: string[] = [];
  let scanned = 0;
  const finish = (stoppedBecause: MonitorStop, matches: MonitorMatch[] = []): MonitorResult => ({
    task: watched.info(),
    stoppedBecause,
    matches,
    tail: matches.length > 0 ? [] : tail,
    linesScanned: scanned,
  });
  for (;;) {
    const ended = watched.info().status !== "running";
    const lines = await readLines(watched.info().outputPath, position.offset, ended);
    const matches: MonitorMatch[] = [];
    // The position moves past every line when none matched, else just past the last match, so the
    // lines after it are there for the next wait.
    let after: Position = { ...position };
    let lineNumber = position.line;
    for (const { text, nextOffset } of lines) {
      lineNumber++;
      scanned++;
      const line = text.length > MAX_LINE_CHARS ? text.slice(0, MAX_LINE_CHARS) : text;
      options.pattern.lastIndex = 0;
      if (matches.length < MAX_MATCHES && options.pattern.test(line)) {
        matches.push({ line: lineNumber, text: line });
        after = { offset: nextOffset, line: lineNumber };
      }
      tail.push(line);
      if (tail.length > TAIL_LINES) tail.shift();
    }
    if (matches.length === 0 && lines.length > 0)
      after = { offset: lines.at(-1)!.nextOffset, line: lineNumber };
    Object.assign(position, after);
    if (matches.length > 0) return finish("matched", matches);
    if (options.signal?.aborted) return finish("aborted");
    const left = deadline - Date.now();
    // More output than one read holds: look again at once (unless the time is up while it runs).
    if (lines.length > 0) {
      if (left <= 0 && !ended) return finish("timeout");
      continue;
    }
    if (ended) return finish("exited");
    if (left <= 0) return finish("timeout");
    await pause(Math.min(options.pollMs ?? 100, left), watched.ended, options.signal);
  }
}
