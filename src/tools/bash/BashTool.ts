// The Bash tool: runs a command in the session's shell directory, in its own process group, with
// its output capped for the model and kept whole on disk; or starts it as a background task.

import { readFileSync, statSync } from "node:fs";
import * as z from "zod";
import { isInWorkingDirectories } from "../../permissions/paths.ts";
import type { PermissionResult } from "../../permissions/types.ts";
import { explainBashCommand, isReadOnlyBashCommand, runsOnlyGit } from "../../shell/analyze/analyze.ts";
import { initBashParser, isBashParserReady } from "../../shell/analyze/grammar/parse.ts";
import { bashRuleMatcher } from "../../shell/analyze/ruleMatcher.ts";
// What runs a command (shell/run, the sandbox's and the confinement's launchers) loads when a command
// runs: `keel check` and `keel hook` decide Bash calls without it (~100 KB of code a start skips).
import type { CommandLauncher } from "../../shell/run/exec.ts";
import type { CommandProgress } from "../../shell/run/execForeground.ts";
import { BASH_MAX_OUTPUT_CHARS } from "../../shell/run/output.ts";
import { canConfine } from "../../shell/sandbox/confinementAvailability.ts";
import { sandboxExclusionOf } from "../../shell/sandbox/sandboxExclusions.ts";
import { builtOnFirstUse } from "../../tool/builtOnFirstUse.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { errorMessage, ToolError } from "../../tool/errors.ts";
import { groupThousands } from "../../tool/format.ts";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { buildTool, safeFlag } from "../../tool/Tool.ts";
import { checkBashPermissions, UNSANDBOXED_REFUSED } from "./bashPermissions.ts";
import { bashToolMeta } from "./meta.ts";

const inputSchema = z.object({
  command: z.string().min(1).describe("The bash command to run"),
  timeout: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("Optional timeout in milliseconds (default 120000, max 600000)"),
  description: z
    .string()
    .optional()
    .describe("What the command does, in 5-10 words, e.g. 'List files in the current directory'"),
  run_in_background: z
    .boolean()
    .optional()
    .describe("Run the command as a background task; read its output later with TaskOutput"),
  dangerouslyDisableSandbox: z
    .boolean()
    .optional()
    .describe(
      "Run outside the OS sandbox, or the confinement that keeps protected paths read-only, only when the command failed because of it. Always needs the user's approval",
    ),
});

export type BashInput = z.infer<typeof inputSchema>;

export interface BashOutput {
  /** Model-facing output: ANSI stripped, capped at 30,000 characters with the middle cut. */
  output: string;
  exitCode: number | null;
  /** The signal that ended bash, if one did. */
  signal?: string;
  isError: boolean;
  /** Why a non-zero exit code is not an error ("No matches found"). */
  exitNote?: string;
  timedOut?: boolean;
  timeoutMs?: number;
  /** The whole output on disk, when the model sees only part of it (or it is binary). */
  outputPath?: string;
  totalBytes: number;
  binary?: boolean;
  /** The shell directory after the command. */
  cwd: string;
  /** Set when the shell directory was reset to the project root, saying why. */
  cwdNote?: string;
  /** Set when a confined command hit a protected path, saying why and what to do. */
  confinementNote?: string;
  backgroundTaskId?: string;
}

export type BashProgress = CommandProgress & { command: string };

function envMs(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

/** Timeout limits, configurable by environment (KEEL_BASH_DEFAULT_TIMEOUT_MS, KEEL_BASH_MAX_TIMEOUT_MS). */
export function bashTimeouts(): { defaultMs: number; maxMs: number } {
  const maxMs = envMs("KEEL_BASH_MAX_TIMEOUT_MS", 600_000);
  return { defaultMs: Math.min(envMs("KEEL_BASH_DEFAULT_TIMEOUT_MS", 120_000), maxMs), maxMs };
}

let promptTemplate: string | undefined;

function renderPrompt(): string {
  promptTemplate ??= readFileSync(new URL("./prompt.md", import.meta.url), "utf8");
  const { defaultMs, maxMs } = bashTimeouts();
  return promptTemplate
    .replaceAll("{{DEFAULT_TIMEOUT_MS}}", `${defaultMs} ms (${Math.round(defaultMs / 60_000)} min)`)
    .replaceAll("{{MAX_TIMEOUT_MS}}", `${maxMs} ms (${Math.round(maxMs / 60_000)} min)`)
    .replaceAll("{{MAX_OUTPUT_CHARS}}", groupThousands(BASH_MAX_OUTPUT_CHARS))
    .trim();
}

/** Read-only commands run without asking and in parallel; unknown until the parser is ready (fail closed). */
function readOnly(input: BashInput): boolean {
  return safeFlag(() => isBashParserReady() && isReadOnlyBashCommand(input.command), false);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The directory to run in: the session's shell cwd, unless it is gone or no longer allowed. */
function startingCwd(context: ToolUseContext): { cwd: string; note?: string } {
  const { cwd, toolPermissionContext } = context.getAppState();
  const root = toolPermissionContext.projectRoot;
  if (cwd !== root && !(isDirectory(cwd) && isInWorkingDirectories(cwd, toolPermissionContext))) {
    context.setAppState((state) => ({ ...state, cwd: root }));
    return {
      cwd: root,
      note: `Shell cwd was reset to ${root}: ${cwd} no longer exists or is not a working directory.`,
    };
  }
  return { cwd };
}

/** Keeps a `cd` inside the working directories; anything else goes back to the project root. */
function persistCwd(
  context: ToolUseContext,
  finalCwd: string | undefined,
  cwd: string,
): { cwd: string; note?: string } {
  // Where it started (a folder allowed at the start): nothing to check or change.
  if (finalCwd === undefined || finalCwd === cwd) return { cwd };
  const permissionContext = context.getAppState().toolPermissionContext;
  if (isInWorkingDirectories(finalCwd, permissionContext)) {
    context.setAppState((state) => ({ ...state, cwd: finalCwd }));
    return { cwd: finalCwd };
  }
  const root = permissionContext.projectRoot;
  context.setAppState((state) => ({ ...state, cwd: root }));
  return {
    cwd: root,
    note: `Shell cwd was reset to ${root}: ${finalCwd} is outside the working directories. Use absolute paths there instead of cd.`,
  };
}

/** How a write the confinement refused shows in a command's output. */
const CONFINED_FAILURE = /Read-only file system|Device or resource busy/;
const CONFINEMENT_NOTE =
  "This command ran confined (the user did not approve it themselves): protected paths such as .git, .claude, .keel and shell or git configuration are read-only, and such names cannot be created. Run git on its own in a call for git's own work; if the user wants this write, retry with dangerouslyDisableSandbox: true, which asks them.";

/** Whether a person approved this very call (the pipeline records who decided); a call made without it was not. */
function approvedByPerson(context: ToolUseContext, toolUseId: string | undefined): boolean {
  const decision = toolUseId === undefined ? undefined : context.toolDecisions?.get(toolUseId);
  return decision?.behavior === "allow" && decision.reason.type === "user";
}

// Imported once, by the first call that needs them; later calls find them loaded (no trip through the
// module loader per command).
const sandboxModule = builtOnFirstUse(() => import("../../shell/sandbox/sandbox.ts"));
const confinementModule = builtOnFirstUse(() => import("../../shell/sandbox/confinementLauncher.ts"));
const backgroundModule = builtOnFirstUse(() => import("../../shell/run/background.ts"));
const foregroundModules = builtOnFirstUse(() =>
  Promise.all([import("../../shell/run/execForeground.ts"), import("../../shell/run/execSemantics.ts")]),
);

/**
 * Where the command runs: the OS sandbox when it is on (unless excluded from it, or a person approved
 * leaving it); otherwise, unless a person approved the call, the confinement (protected paths
 * read-only), which is how a mode, an allow rule, a hook, the classifier or the analyzer may approve
 * commands whose writes the analysis cannot name. Nothing to confine with (context.sandbox.confinement
 * false): as is, since the decision then asked for what it could not name.
 */
async function launcherFor(
  context: ToolUseContext,
  input: BashInput,
  cwd: string,
  toolUseId: string | undefined,
): Promise<(CommandLauncher & { confined?: true }) | undefined> {
  const permissionContext = context.getAppState().toolPermissionContext;
  const sandbox = permissionContext.sandbox;
  const byPerson = approvedByPerson(context, toolUseId);
  // Only git, with read-only company: git's own data in .git stays writable (confinementLayout.ts).
  const profile = byPerson || runsOnlyGit(input.command, { cwd, permissionContext }) ? "git" : "strict";
  if (sandbox.enabled) {
    if (input.dangerouslyDisableSandbox) {
      // The permission check refuses or asks; a call made without the pipeline does not leave either.
      if (sandbox.allowUnsandboxedCommands === false) throw new ToolError("not_allowed", UNSANDBOXED_REFUSED);
      if (byPerson) return undefined;
    } else if (sandboxExclusionOf(input.command, permissionContext) !== undefined) return undefined;
    const { createSandboxLauncher } = await sandboxModule();
    return createSandboxLauncher(permissionContext, { cwd, profile });
  }
  if (byPerson || !canConfine(permissionContext)) return undefined;
  if (input.dangerouslyDisableSandbox && sandbox.allowUnsandboxedCommands === false)
    throw new ToolError("not_allowed", UNSANDBOXED_REFUSED);
  const { createConfinementLauncher } = await confinementModule();
  return { ...createConfinementLauncher(permissionContext, { profile }), confined: true };
}

function resultText(output: BashOutput): string {
  if (output.backgroundTaskId !== undefined) {
    return (
      `Command running in the background with task id ${output.backgroundTaskId}. ` +
      `Its output is written to ${output.outputPath}. Read new output with TaskOutput and end it with TaskStop.`
    );
  }
  const notes: string[] = [];
  if (output.timedOut) {
    notes.push(
      `Command timed out after ${output.timeoutMs} ms and was killed with everything it started. ` +
        "Give a larger timeout or use run_in_background for long-running commands.",
    );
  } else if (output.exitNote) notes.push(`Exit code ${output.exitCode}: ${output.exitNote}`);
  else if (output.isError)
    notes.push(
      output.exitCode === null ? `Killed by ${output.signal ?? "a signal"}` : `Exit code ${output.exitCode}`,
    );
  if (output.outputPath && !output.output.includes(output.outputPath))
    notes.push(`Full output saved to ${output.outputPath}`);
  if (output.cwdNote) notes.push(output.cwdNote);
  if (output.confinementNote) notes.push(output.confinementNote);
  return [output.output.replace(/\n+$/, ""), ...notes].filter((part) => part !== "").join("\n");
}

function withFullInput(
  result: PermissionResult<{ command: string }>,
  input: BashInput,
): PermissionResult<BashInput> {
  if ((result.behavior === "allow" || result.behavior === "passthrough") && result.updatedInput)
    return { ...result, updatedInput: { ...input, ...result.updatedInput } };
  return result as PermissionResult<BashInput>;
}

export const BashTool = buildTool<BashInput, BashOutput, BashProgress>({
  ...bashToolMeta,
  ruleMatcher: bashRuleMatcher,
  searchHint: "run shell commands, build, test, git",
  inputSchema,
  maxResultSizeChars: BASH_MAX_OUTPUT_CHARS,
  prompt: () => renderPrompt(),
  description: (input) => input.description?.trim() || `Run ${input.command.slice(0, 80)}`,
  // The grammar, so isReadOnly and isConcurrencySafe judge the command instead of saying "no" while it loads.
  prepare: () => initBashParser().catch(() => {}),
  isReadOnly: readOnly,
  isConcurrencySafe: readOnly,
  interruptBehavior: () => "cancel",
  errorCancelsSiblings: true,
  toAutoClassifierInput: (input) => input.command,
  checkPermissions: async (input, context) =>
    withFullInput(await checkBashPermissions(input, context), input),
  explainPermission: async (input, context) => {
    const state = context.getAppState();
    try {
      const { verdict, parts, check } = await explainBashCommand(input.command, {
        cwd: state.cwd,
        permissionContext: state.toolPermissionContext,
      });
      return { analyzer: verdict.behavior, analyzerReason: verdict.reason, check: check ?? null, parts };
    } catch (error) {
      // What checkPermissions decided on the same failure (bashPermissions.ts): the explanation says it too.
      return {
        analyzer: "ask",
        analyzerReason: `the bash analyzer failed on this command (${errorMessage(error)})`,
        check: "analyzer-error",
        parts: [],
      };
    }
  },

  validateInput: (input) => {
    const { maxMs } = bashTimeouts();
    if (input.timeout !== undefined && input.timeout > maxMs)
      return {
        result: false,
        errorCode: "invalid_input",
        message: `timeout ${input.timeout} ms is over the maximum of ${maxMs} ms. Use a smaller timeout, or run_in_background: true for commands that run longer.`,
      };
    return { result: true };
  },

  async call(input, context, _canUseTool, parentMessage, onProgress) {
    if (!isBashParserReady()) await initBashParser().catch(() => {});
    const start = startingCwd(context);
    const launcher = await launcherFor(context, input, start.cwd, parentMessage?.id);
    const outputDir = context.options.toolResultsDir;

    if (input.run_in_background) {
      const { startBackgroundTask } = await backgroundModule();
      const task = await startBackgroundTask(context.options.sessionId, {
        command: input.command,
        ...(input.description ? { description: input.description } : {}),
        cwd: start.cwd,
        outputDir,
        ...(launcher ? { launcher } : {}),
      });
      return {
        data: {
          output: "",
          exitCode: null,
          isError: false,
          totalBytes: 0,
          outputPath: task.outputPath,
          cwd: start.cwd,
          backgroundTaskId: task.id,
          ...(start.note ? { cwdNote: start.note } : {}),
        },
      };
    }

    const timeoutMs = input.timeout ?? bashTimeouts().defaultMs;
    const toolUseId = parentMessage?.id ?? "";
    const [{ runForegroundCommand }, { interpretExitCode }] = await foregroundModules();
    const { exit, summary, outputPath } = await runForegroundCommand({
      command: input.command,
      cwd: start.cwd,
      timeoutMs,
      outputDir,
      // Room under the result budget for the tool's own notes (exit code, timeout, cwd reset).
      maxChars: BASH_MAX_OUTPUT_CHARS - 1_000,
      signal: context.abortController.signal,
      ...(launcher ? { launcher } : {}),
      onProgress: (progress) => onProgress({ toolUseId, data: { ...progress, command: input.command } }),
    });

    if (exit.interrupted === "abort") {
      const tail = summary.text.slice(-2_000);
      throw new ToolError(
        "aborted",
        `The command was interrupted and killed.${tail ? ` Output so far:\n${tail}` : ""}`,
      );
    }
    const after = exit.interrupted ? { cwd: start.cwd } : persistCwd(context, exit.finalCwd, start.cwd);
    const meaning = interpretExitCode(input.command, exit.exitCode);
    const cwdNote = after.note ?? start.note;
    const confinementNote =
      launcher?.confined && CONFINED_FAILURE.test(summary.text) ? CONFINEMENT_NOTE : undefined;
    const data: BashOutput = {
      output: summary.text,
      exitCode: exit.exitCode,
      ...(exit.signal ? { signal: exit.signal } : {}),
      isError: exit.interrupted === "timeout" || meaning.isError,
      ...(meaning.note ? { exitNote: meaning.note } : {}),
      ...(exit.interrupted === "timeout" ? { timedOut: true, timeoutMs } : {}),
      ...(outputPath ? { outputPath } : {}),
      totalBytes: summary.totalBytes,
      ...(summary.binary ? { binary: true } : {}),
      cwd: after.cwd,
      ...(cwdNote ? { cwdNote } : {}),
      ...(confinementNote ? { confinementNote } : {}),
    };
    return { data };
  },

  mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
    return {
      type: "tool_result",
      tool_use_id: toolUseId,
      content: resultText(output),
      ...(output.isError ? { is_error: true } : {}),
    };
  },

  renderToolUse: (input) => ({ kind: "command", command: input.command }),
  renderToolResult: (output, input) => ({
    kind: "command",
    command: input.command,
    output: resultText(output),
    ...(output.exitCode === null ? {} : { exitCode: output.exitCode }),
  }),
  renderToolProgress: (progress) => ({ kind: "command", command: progress.command, output: progress.output }),
});
