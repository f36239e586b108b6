// Glob: file names by pattern, newest-modified first, through `rg --files`. Read-only, concurrency-safe.

import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import * as z from "zod";
import { pathRuleMatcher } from "../../permissions/pathRules.ts";
import { ToolError } from "../../tool/errors.ts";
import { buildTool, type Tool } from "../../tool/Tool.ts";
import { withSearchIgnores } from "../search-shared/ignoreFile.ts";
import { MtimeCollector } from "../search-shared/newestFirst.ts";
import { ripgrepRunNotes, runRipgrep, throwIfRipgrepFailed } from "../search-shared/ripgrep.ts";
import { commonSearchArgs, exclusionArgs } from "../search-shared/searchArgs.ts";
import {
  checkSearchPermission,
  resolveSearchRoot,
  type SearchRoot,
  validateSearchPath,
} from "../search-shared/searchRoot.ts";
import { STAT_WORKERS } from "../search-shared/statPool.ts";
import { globTarget, matchesEveryFile, patternMatcher, ripgrepFilter, toRipgrepGlob } from "./globTarget.ts";
import { bufferingArgs, rememberListingSize, remembersLargeListing } from "./listingSize.ts";
import { globToolMeta } from "./meta.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

export const DEFAULT_GLOB_MAX_RESULTS = 100;

export interface GlobInput {
  pattern: string;
  path?: string;
}

export interface GlobOutput {
  /** Absolute paths, newest-modified first. */
  filenames: string[];
  /** Files that matched in all. */
  numFiles: number;
  truncated: boolean;
  /** Things the model should know: unreadable folders, output cut. */
  notes: string[];
}

export const globInputSchema = z.strictObject({
  pattern: z
    .string()
    .min(1)
    .regex(/^[^\r\n\0]*$/, "a glob pattern is one line")
    .describe('The glob to match file paths against, e.g. "**/*.ts" or "src/**/*.{ts,tsx}"'),
  path: z
    .string()
    .optional()
    .describe(
      "The folder to search from, absolute or relative to the current directory. Default: the current directory",
    ),
});

/**
 * Listing files is system calls, not matching: rg gets the cores the stat workers leave (one on a
 * 2-core machine, where one thread lists 200,000 files faster than two and leaves a core to stat).
 */
const LIST_THREADS = Math.max(1, availableParallelism() - 1 - STAT_WORKERS);

/**
 * `filterArgs` carry the pattern as rg filters (globTarget.ts ripgrepFilter, or an ignore file from
 * ignoreFile.ts): as a --glob it would override .gitignore.
 */
export function globArgs(root: SearchRoot, filterArgs: readonly string[]): string[] {
  return [
    ...commonSearchArgs(),
    "--files",
    "--null",
    `--threads=${LIST_THREADS}`,
    ...filterArgs,
    ...exclusionArgs(root.denyPatterns),
    "--",
    root.target,
  ];
}

export function formatGlobOutput(output: GlobOutput): string {
  const notes = output.notes.map((note) => `[${note}]`);
  if (output.filenames.length === 0) return ["No files found", ...notes].join("\n");
  const lines = [...output.filenames];
  if (output.truncated)
    lines.push(
      `(Results are truncated: showing the ${output.filenames.length} most recently modified of ${output.numFiles} files. ` +
        "Use a more specific path or pattern to see others.)",
    );
  return [...lines, ...notes].join("\n");
}

export const GlobTool: Tool<GlobInput, GlobOutput> = buildTool<GlobInput, GlobOutput>({
  ...globToolMeta,
  searchHint: "find files by name pattern",
  inputSchema: globInputSchema,
  maxResultSizeChars: 100_000,
  ruleMatcher: pathRuleMatcher,
  isReadOnly: true,
  isConcurrencySafe: true,
  interruptBehavior: () => "cancel",
  prompt: () => PROMPT,
  description: (input) => `Find files matching ${input.pattern}`,
  getPath: (input) => globTarget(input).path ?? ".",
  userFacingName: () => "Search",
  title: "Find files by name",
  toAutoClassifierInput: (input) => (input.path ? `${input.pattern} in ${input.path}` : input.pattern),
  validateInput: (input, context) =>
    validateSearchPath(globTarget(input).path, context, { directoryOnly: true, toolName: globToolMeta.name }),
  checkPermissions: (input, context) =>
    checkSearchPermission(GlobTool, globTarget(input).path, input, context),
  async call(input, context) {
    const target = globTarget(input);
    const root = await resolveSearchRoot(GlobTool, input, target.path, context);
    if (!root.isDirectory)
      throw new ToolError(
        "not_a_directory",
        `${root.absolute} is a file, not a folder. Give Glob a folder as path.`,
      );
    const signal = context.abortController.signal;
    const everyFile = matchesEveryFile(target.pattern);
    const search = `${root.cwd}\0${root.target}\0${target.pattern}`;
    const collector = new MtimeCollector(root.cwd, everyFile ? undefined : patternMatcher(target.pattern), {
      parallel: true,
      ...(remembersLargeListing(search) ? { parallelFrom: 0 } : {}),
    });
    const filter = everyFile ? { args: [], needsIgnoreFile: false } : ripgrepFilter(target.pattern);
    const globs = filter.needsIgnoreFile ? [toRipgrepGlob(target.pattern)] : [];
    const run = await withSearchIgnores(root, globs, (ignoreArgs) =>
      runRipgrep(globArgs(root, [...bufferingArgs(search), ...filter.args, ...ignoreArgs]), {
        cwd: root.cwd,
        signal,
        onStdout: (chunk) => collector.push(chunk),
      }),
    );
    throwIfRipgrepFailed(run);
    if (signal.aborted) throw new ToolError("aborted", "The search was cancelled.");
    collector.finish();
    rememberListingSize(search, collector.printed);
    await collector.settle();
    const page = collector.page(0, context.globLimits?.maxResults ?? DEFAULT_GLOB_MAX_RESULTS);
    return {
      data: {
        filenames: page.paths,
        numFiles: page.total,
        truncated: page.total > page.paths.length,
        notes: ripgrepRunNotes(run),
      },
    };
  },
  mapToolResultToToolResultBlockParam: (output, toolUseId) => ({
    type: "tool_result",
    tool_use_id: toolUseId,
    content: formatGlobOutput(output),
  }),
  renderToolUse: (input) => ({
    kind: "text",
    text: `pattern: "${input.pattern}"${input.path ? `, path: "${input.path}"` : ""}`,
  }),
  renderToolResult: (output) => ({
    kind: "list",
    title: `Found ${output.numFiles} file${output.numFiles === 1 ? "" : "s"}`,
    items: output.filenames,
  }),
});
