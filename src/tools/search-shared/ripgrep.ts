// Finding and running ripgrep: the binary shipped in @vscode/ripgrep, else `rg` on PATH. Every run
// takes an AbortSignal and a timeout, and either one kills the rg process.
import { spawn } from "node:child_process";
import { delimiter, join } from "node:path";
import { bundledRipgrepPath, isExecutable } from "../../shell/run/bundledRipgrep.ts";
import { errorMessage, ToolError } from "../../tool/errors.ts";

export const RIPGREP_MISSING_MESSAGE =
  "ripgrep (rg) was not found. Keel uses the rg binary shipped in the npm package @vscode/ripgrep (>= 1.18); " +
  "reinstall Keel's dependencies (npm install) or install ripgrep so that `rg` is on PATH " +
  "(https://github.com/BurntSushi/ripgrep#installation).";

export interface RipgrepSources {
  /** The bundled binary's path, or undefined when the platform package is missing. */
  bundled: () => Promise<string | undefined>;
  /** The PATH to search for `rg`. */
  pathEnv: string | undefined;
}

async function bundledRipgrep(): Promise<string | undefined> {
  return bundledRipgrepPath();
}

/** Where rg is, by the order of the spec; throws a ToolError naming how to get one. */
export async function findRipgrep(sources: RipgrepSources): Promise<string> {
  const bundled = await sources.bundled();
  if (bundled) return bundled;
  const names = process.platform === "win32" ? ["rg.exe"] : ["rg"];
  for (const dir of (sources.pathEnv ?? "").split(delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  throw new ToolError("ripgrep_missing", RIPGREP_MISSING_MESSAGE);
}

let located: Promise<string> | undefined;

/** The rg binary for this process, found once. */
export function ripgrepPath(): Promise<string> {
  located ??= findRipgrep({ bundled: bundledRipgrep, pathEnv: process.env.PATH }).catch((error: unknown) => {
    located = undefined;
    throw error;
  });
  return located;
}

export interface RipgrepRun {
  /** rg's standard output, whole (or up to maxOutputBytes); empty when streamed to onStdout. */
  stdout: Buffer;
  stderr: string;
  /** 0: matches, 1: none, 2: an error (possibly with partial results). */
  exitCode: number;
  /** How many bytes rg wrote to stdout. */
  outputBytes: number;
  /** True when output passed maxOutputBytes and rg was stopped early. */
  outputCapped: boolean;
}

export interface RipgrepOptions {
  cwd: string;
  signal: AbortSignal;
  timeoutMs?: number;
  /** Beyond this many bytes of output rg is stopped and the run is marked capped. */
  maxOutputBytes?: number;
  /** Takes stdout as it arrives instead of collecting it (the run's stdout is then empty). */
  onStdout?: (chunk: Buffer) => void;
  /** Observes the child's pid (tests check the process is gone after an abort). */
  onSpawn?: (pid: number) => void;
}

export const DEFAULT_RIPGREP_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_OUTPUT_BYTES = 128 * 1024 * 1024;
const MAX_STDERR_CHARS = 8_000;

/** Runs rg with `args` in `cwd`. Resolves for exit codes 0-2; rejects on abort, timeout or spawn failure. */
export async function runRipgrep(args: readonly string[], options: RipgrepOptions): Promise<RipgrepRun> {
  const rg = await ripgrepPath();
  if (options.signal.aborted) throw abortedError();
  const timeoutMs = options.timeoutMs ?? DEFAULT_RIPGREP_TIMEOUT_MS;
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  return new Promise<RipgrepRun>((resolvePromise, rejectPromise) => {
    const child = spawn(rg, args, { cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"], windowsHide: true });
    const chunks: Buffer[] = [];
    let outputBytes = 0;
    let outputCapped = false;
    let stderr = "";
    let failure: ToolError | undefined;
    let settled = false;

    const stop = (error: ToolError | undefined) => {
      if (error && !failure) failure = error;
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    };
    const onAbort = () => stop(abortedError());
    const timer = setTimeout(
      () =>
        stop(
          new ToolError(
            "timeout",
            `The search took longer than ${Math.round(timeoutMs / 1000)} s and was stopped. ` +
              "Search a narrower path or use a more specific glob or type.",
          ),
        ),
      timeoutMs,
    );
    options.signal.addEventListener("abort", onAbort, { once: true });
    const finish = (run: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener("abort", onAbort);
      run();
    };

    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    child.stdout.on("data", (chunk: Buffer) => {
      if (outputCapped) return;
      if (!options.onStdout) chunks.push(chunk);
      else {
        try {
          options.onStdout(chunk);
        } catch (error) {
          stop(new ToolError("tool_failed", `Reading ripgrep's output failed: ${errorMessage(error)}`));
          return;
        }
      }
      outputBytes += chunk.length;
      if (outputBytes > maxOutputBytes) {
        outputCapped = true;
        stop(undefined);
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      if (stderr.length < MAX_STDERR_CHARS) stderr += chunk;
    });
    child.on("error", (error: NodeJS.ErrnoException) =>
      finish(() =>
        rejectPromise(
          error.code === "ENOENT"
            ? new ToolError("ripgrep_missing", RIPGREP_MISSING_MESSAGE, { cause: error })
            : new ToolError("tool_failed", `Could not run ripgrep: ${error.message}`, { cause: error }),
        ),
      ),
    );
    child.on("close", (code) =>
      finish(() => {
        if (failure) return rejectPromise(failure);
        if (outputCapped || (code !== null && code <= 2)) {
          resolvePromise({
            stdout: Buffer.concat(chunks),
            stderr,
            exitCode: code ?? 0,
            outputBytes,
            outputCapped,
          });
          return;
        }
        rejectPromise(
          new ToolError("tool_failed", `ripgrep stopped unexpectedly (exit ${code}): ${stderr.trim()}`),
        );
      }),
    );
  });
}

function abortedError(): ToolError {
  return new ToolError("aborted", "The search was cancelled.");
}

/** rg's error text for the model, without the per-file noise ("Permission denied" on one file). */
export function ripgrepErrorText(stderr: string): string {
  return stderr
    .split("\n")
    .map((line) => line.replace(/^rg: /, ""))
    .join("\n")
    .trim();
}

/**
 * rg's regex error as the model should read it: with `--engine=auto` a pattern neither engine takes is
 * reported for both; the default engine's part is the one in Grep's documented (Rust regex) syntax.
 * Advice to pass `--pcre2`, a flag Grep does not have, is dropped.
 */
export function regexErrorText(text: string): string {
  const own = text.match(/default regex engine error:\s*~+\n([\s\S]*?)\n~+/);
  const kept = own ? own[1]! : text;
  return kept
    .split("\n")
    .filter((line) => !/--pcre2|can handle backreferences|and look-around\.$/.test(line))
    .join("\n")
    .trim();
}

/** Fails the call for exit code 2 with nothing found: a bad regex, an unknown type, an unreadable path. */
export function throwIfRipgrepFailed(run: RipgrepRun): void {
  if (run.exitCode !== 2 || run.outputBytes > 0) return;
  const text = ripgrepErrorText(run.stderr);
  if (/PCRE2 is not available/i.test(text))
    throw new ToolError(
      "invalid_input",
      "This pattern needs look-around or backreferences (PCRE2), which the ripgrep in use was built without. " +
        "Rewrite it without them, or search more broadly and narrow the results.",
    );
  if (/regex parse error|error parsing regex|could not be compiled|PCRE2:/i.test(text))
    throw new ToolError(
      "invalid_input",
      `Invalid regular expression (ripgrep syntax, Rust regex): ${regexErrorText(text)}\n` +
        "Escape special characters for a literal match (e.g. \\( \\[ \\{ \\. \\*), or fix the pattern.",
    );
  if (/unrecognized file type/i.test(text))
    throw new ToolError(
      "invalid_input",
      `${text}. Use a ripgrep file type such as js, ts, py, rust, go, java, or use the glob parameter instead.`,
    );
  if (/glob|Error parsing/i.test(text))
    throw new ToolError("invalid_input", `Invalid glob: ${text}. Fix the glob pattern and try again.`);
  // Per-file errors alone (unreadable files) with no matches are not a failure of the search.
  if (/Permission denied|No such file|os error/i.test(text) && !/^error/im.test(text)) return;
  throw new ToolError("tool_failed", `ripgrep failed: ${text || "exit code 2"}`);
}

/** What the model should know about a run that still gave results: output cut, paths unreadable. */
export function ripgrepRunNotes(run: RipgrepRun, maxOutputBytes = DEFAULT_MAX_OUTPUT_BYTES): string[] {
  const notes: string[] = [];
  if (run.outputCapped)
    notes.push(
      `ripgrep's output passed ${Math.round(maxOutputBytes / 1024 / 1024)} MB and the search was stopped, ` +
        "so these results are partial. Narrow the search with path, glob or type.",
    );
  if (run.exitCode === 2 && run.stderr.trim())
    notes.push(`Some paths could not be searched: ${ripgrepErrorText(run.stderr).split("\n")[0]}`);
  return notes;
}
