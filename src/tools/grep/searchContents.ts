// One Grep search: the rg command for the input, run in the search root, and its output paged.
import { availableParallelism } from "node:os";
import { ToolError } from "../../tool/errors.ts";
import { withSearchIgnores } from "../search-shared/ignoreFile.ts";
import { MtimeCollector } from "../search-shared/newestFirst.ts";
import { effectiveLimit } from "../search-shared/pagination.ts";
import { ripgrepRunNotes, runRipgrep, throwIfRipgrepFailed } from "../search-shared/ripgrep.ts";
import {
  commonSearchArgs,
  exclusionArgs,
  MAX_LINE_COLUMNS,
  splitGlobParameter,
} from "../search-shared/searchArgs.ts";
import type { SearchRoot } from "../search-shared/searchRoot.ts";
import { ContentCollector, countPage, fileContentPage, parseCountOutput } from "./parseOutput.ts";

export type GrepOutputMode = "files_with_matches" | "content" | "count";

export interface GrepInput {
  pattern: string;
  path?: string;
  glob?: string;
  type?: string;
  output_mode?: GrepOutputMode;
  "-A"?: number;
  "-B"?: number;
  "-C"?: number;
  context?: number;
  "-n"?: boolean;
  "-i"?: boolean;
  multiline?: boolean;
  head_limit?: number;
  offset?: number;
}

export interface GrepOutput {
  mode: GrepOutputMode;
  /** files_with_matches: this page's paths, newest first. count: this page's files. */
  filenames: string[];
  /** content and count modes: this page's text. */
  content?: string;
  /** Files with a match (files and count modes) or files with output lines (content mode), before paging. */
  numFiles: number;
  /** Entries before paging: files, content lines or per-file counts. */
  totalEntries: number;
  /** Entries on this page. */
  shownEntries: number;
  /** count mode: matching lines over all files. */
  numMatches?: number;
  offset: number;
  /** The head_limit applied, when it cut the results. */
  appliedLimit?: number;
  /** Things the model should know: partial output, unreadable files. */
  notes: string[];
}

export interface SearchOptions {
  signal: AbortSignal;
  timeoutMs?: number;
  maxOutputBytes?: number;
}

/** Lines before and after each match: -B / -A win over -C / context for their side. */
function contextLines(input: GrepInput): { before: number | undefined; after: number | undefined } {
  const around = input.context ?? input["-C"];
  return { before: input["-B"] ?? around, after: input["-A"] ?? around };
}

function contextArgs(input: GrepInput): string[] {
  const { before, after } = contextLines(input);
  return [
    ...(before === undefined ? [] : [`--before-context=${before}`]),
    ...(after === undefined ? [] : [`--after-context=${after}`]),
  ];
}

/**
 * Content output is the heavy kind: every matching line crosses the pipe and this process parses it.
 * rg's threads then compete with that reading for the cores, and on 2 cores two threads search a
 * tree slower than one that leaves a core to the reader (5% of lines matching: 2,000 files 32 vs 26 ms,
 * 200,000 files 3.5 vs 2.5 s). Like Glob's listing, rg gets the cores the reader leaves.
 */
const CONTENT_THREADS = Math.max(1, availableParallelism() - 1);

/**
 * The whole rg command line for an input; `ignoreFileArgs` carry the glob parameter and the rules of the
 * folders above the root (see ignoreFile.ts).
 * The pattern goes through --regexp so a leading "-" is not a flag.
 */
export function grepArgs(input: GrepInput, root: SearchRoot, ignoreFileArgs: readonly string[]): string[] {
  const mode = input.output_mode ?? "files_with_matches";
  const args = commonSearchArgs();
  if (mode === "files_with_matches") args.push("--files-with-matches", "--null");
  else if (mode === "count") args.push("--count", "--with-filename", "--null");
  else {
    args.push(`--max-columns=${MAX_LINE_COLUMNS}`, "--max-columns-preview", `--threads=${CONTENT_THREADS}`);
    // A folder's output is regrouped by file (see parseOutput.ts): headings, NUL after paths, line numbers.
    if (root.isDirectory) args.push("--heading", "--with-filename", "--null", "--line-number");
    else
      args.push(
        "--no-heading",
        "--no-filename",
        input["-n"] === false ? "--no-line-number" : "--line-number",
      );
    args.push(...contextArgs(input));
  }
  if (input["-i"]) args.push("--ignore-case");
  if (input.multiline) args.push("--multiline", "--multiline-dotall");
  if (input.type) args.push(`--type=${input.type}`);
  args.push(...ignoreFileArgs, ...exclusionArgs(root.denyPatterns));
  // A pattern with look-around or backreferences needs PCRE2; rg picks it only for such patterns.
  args.push("--engine=auto", "--regexp", input.pattern, "--", root.target);
  return args;
}

export async function searchContents(
  input: GrepInput,
  root: SearchRoot,
  options: SearchOptions,
): Promise<GrepOutput> {
  const mode = input.output_mode ?? "files_with_matches";
  const offset = input.offset ?? 0;
  const limit = effectiveLimit(input.head_limit);
  const maxOutputBytes = options.maxOutputBytes ?? 128 * 1024 * 1024;
  // Files and folder content output are taken in while rg runs; count and one-file output after.
  const collector = mode === "files_with_matches" ? new MtimeCollector(root.cwd) : undefined;
  const content = mode === "content" && root.isDirectory ? new ContentCollector() : undefined;
  const stream = collector ?? content;
  const run = await withSearchIgnores(root, splitGlobParameter(input.glob ?? ""), (ignoreArgs) =>
    runRipgrep(grepArgs(input, root, ignoreArgs), {
      cwd: root.cwd,
      signal: options.signal,
      maxOutputBytes,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(stream ? { onStdout: (chunk: Buffer) => stream.push(chunk) } : {}),
    }),
  );
  throwIfRipgrepFailed(run);
  if (options.signal.aborted) throw new ToolError("aborted", "The search was cancelled.");
  const notes = ripgrepRunNotes(run, maxOutputBytes);
  const base = { mode, offset, notes };
  const applied = (total: number) =>
    limit !== undefined && offset + limit < total ? { appliedLimit: limit } : {};

  if (collector) {
    collector.finish();
    const page = collector.page(offset, limit);
    return {
      ...base,
      filenames: page.paths,
      numFiles: page.total,
      totalEntries: page.total,
      shownEntries: page.paths.length,
      ...applied(page.total),
    };
  }
  if (mode === "count") {
    const counts = parseCountOutput(run.stdout, root.cwd);
    const page = countPage(counts, offset, limit);
    return {
      ...base,
      filenames: page.map((entry) => entry.path),
      content: page.map((entry) => `${entry.path}:${entry.count}`).join("\n"),
      numFiles: counts.length,
      numMatches: counts.reduce((sum, entry) => sum + entry.count, 0),
      totalEntries: counts.length,
      shownEntries: page.length,
      ...applied(counts.length),
    };
  }
  content?.finish();
  const page = content
    ? content.page(root.cwd, {
        showLineNumbers: input["-n"] !== false,
        hasContext: (contextLines(input).before ?? 0) > 0 || (contextLines(input).after ?? 0) > 0,
        offset,
        limit,
      })
    : fileContentPage(run.stdout.toString("utf8"), offset, limit);
  return {
    ...base,
    filenames: [],
    content: page.lines.join("\n"),
    numFiles: page.files,
    totalEntries: page.totalLines,
    shownEntries: page.lines.length,
    ...applied(page.totalLines),
  };
}
