// Where a search starts: the input path resolved against the session's cwd, checked to exist, and
// the permission rule every search tool shares (inside the working directories, or ask).
// Paths are stat'ed synchronously: one system call, where a thread-pool round trip costs more.
import { type Stats, statSync } from "node:fs";
import { basename, dirname } from "node:path";
import { findDenyRule } from "../../permissions/engine.ts";
import { readDenyGlobs } from "../../permissions/pathRules.ts";
import { callPath, isInWorkingDirectories } from "../../permissions/paths.ts";
import { formatRuleValue } from "../../permissions/rules.ts";
import type { PermissionResult } from "../../permissions/types.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { ToolError } from "../../tool/errors.ts";
import type { Tool, ValidationResult } from "../../tool/Tool.ts";

export interface SearchRoot {
  /** The absolute path searched (a folder, or one file). */
  absolute: string;
  isDirectory: boolean;
  /** Where rg runs: the folder itself, or the file's folder. Exclusion globs are relative to it. */
  cwd: string;
  /** rg's path argument relative to `cwd`: "." or "./<file name>". */
  target: string;
  /** Exclusion globs from Read deny rules (pathRules.readDenyGlobs), relative to `cwd`; case-insensitive. */
  denyPatterns: string[];
}

/** The input path as an absolute path; no path means the session's current directory. */
export function absoluteSearchPath(path: string | undefined, context: ToolUseContext): string {
  const state = context.getAppState();
  return callPath(path === undefined || path.trim() === "" ? "." : path, state);
}

function missingPathMessage(absolute: string, context: ToolUseContext): string {
  return (
    `Path does not exist: ${absolute}. The current working directory is ${context.getAppState().cwd}. ` +
    "Check the spelling, or omit path to search the current working directory."
  );
}

/** validateInput for every search tool: the path must exist. */
export async function validateSearchPath(
  path: string | undefined,
  context: ToolUseContext,
  options: { directoryOnly?: boolean; toolName: string } = { toolName: "search" },
): Promise<ValidationResult> {
  const absolute = absoluteSearchPath(path, context);
  try {
    const info = statSync(absolute);
    if (options.directoryOnly && !info.isDirectory())
      return {
        result: false,
        errorCode: "not_a_directory",
        message: `${absolute} is a file, not a directory. ${options.toolName} lists folders; use Read to see a file.`,
      };
    return { result: true };
  } catch {
    return { result: false, errorCode: "file_not_found", message: missingPathMessage(absolute, context) };
  }
}

/** Resolves, stats and applies deny rules. Throws ToolError for a missing or denied path. */
export async function resolveSearchRoot<Input>(
  tool: Tool<Input>,
  input: Input,
  path: string | undefined,
  context: ToolUseContext,
): Promise<SearchRoot> {
  const absolute = absoluteSearchPath(path, context);
  const permissionContext = context.getAppState().toolPermissionContext;
  const deniedBy = await findDenyRule(tool as Tool, input, context);
  if (deniedBy)
    throw new ToolError(
      "permission_denied",
      `Reading ${absolute} is denied by the permission rule ${formatRuleValue(deniedBy.value)} (${deniedBy.source} settings), ` +
        "so it cannot be searched. Search a different path.",
    );
  let info: Stats;
  try {
    info = statSync(absolute);
  } catch {
    throw new ToolError("file_not_found", missingPathMessage(absolute, context));
  }
  // A device never ends (/dev/zero): rg would read it until the timeout.
  if (info.isCharacterDevice() || info.isBlockDevice() || info.isSocket())
    throw new ToolError(
      "unsupported_file",
      `${absolute} is a device or socket, not a file or folder, and cannot be searched.`,
    );
  const isDirectory = info.isDirectory();
  if (isDirectory)
    return {
      absolute,
      isDirectory,
      cwd: absolute,
      target: ".",
      denyPatterns: readDenyGlobs(permissionContext, absolute),
    };
  return {
    absolute,
    isDirectory,
    cwd: dirname(absolute),
    target: `./${basename(absolute)}`,
    denyPatterns: [],
  };
}

/** Inside the working directories: allowed (reads are free there). Outside: ask unless a rule covers it. */
export async function checkSearchPermission<Input>(
  tool: Tool<Input>,
  path: string | undefined,
  input: Input,
  context: ToolUseContext,
): Promise<PermissionResult<Input>> {
  const permissionContext = context.getAppState().toolPermissionContext;
  const absolute = absoluteSearchPath(path, context);
  if (isInWorkingDirectories(absolute, permissionContext, context.getAppState().cwd))
    return {
      behavior: "allow",
      updatedInput: input,
      decisionReason: {
        type: "tool",
        reason: `${absolute} is inside the working directories`,
        check: "read-inside",
      },
    };
  return {
    behavior: "passthrough",
    updatedInput: input,
    message: `${tool.name} wants to search ${absolute}, which is outside the working directories`,
    decisionReason: {
      type: "tool",
      reason: `${absolute} is outside the working directories`,
      check: "outside-working-dirs",
    },
    // `Read(//dir)` covers the folder itself and everything under it (a matched folder covers its contents).
    suggestions: [
      { behavior: "allow", rule: `Read(/${absolute === "/" ? "/" : absolute})`, destination: "session" },
    ],
  };
}
