// Running a launched sub-agent: in the foreground (the Agent call waits for its report) or in the
// background (a task TaskOutput reads and TaskStop stops, reporting back to its parent when done).
import { appendFileSync } from "node:fs";
import type { AgentEvent, RunOutcome } from "../../agent/events.ts";
import { registerBackgroundTask } from "../../shell/run/background.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { errorMessage } from "../../tool/errors.ts";
import { resultText } from "../../tool/messages.ts";
import { RESULT_FILE_MODE } from "../../tool/resultsFolder.ts";
import type { LaunchedAgent } from "./launch.ts";
import { type AgentStatus, setAgentStatus, touchAgent } from "./runningAgents.ts";
import type { AgentRuntime } from "./runtime.ts";
import { finishWorktree, type WorktreeResult } from "./worktree.ts";

export interface AgentUsageSummary {
  turns: number;
  toolCalls: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  costUsd?: number;
  durationMs: number;
}

export interface AgentRunResult {
  status: Exclude<AgentStatus, "running">;
  outcome: RunOutcome;
  usage: AgentUsageSummary;
  worktree?: WorktreeResult;
}

/** Stops the sub-agent's stream and every call it has running. */
export function stopAgent(launched: LaunchedAgent, reason: string): void {
  launched.loop.interrupt();
  launched.context.abortController.abort(new Error(reason));
}

function failedOutcome(error: unknown): RunOutcome {
  return {
    reason: "error",
    turns: 0,
    text: "",
    usage: { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
    costUsd: undefined,
    detail: errorMessage(error),
  };
}

export async function runToEnd(
  launched: LaunchedAgent,
  sessionId: string,
  onEvent?: (event: AgentEvent) => void,
): Promise<AgentRunResult> {
  const started = performance.now();
  let toolCalls = 0;
  let outcome: RunOutcome;
  try {
    outcome = await launched.loop.run(launched.prompt, (event) => {
      if (event.type === "tool_result") toolCalls++;
      touchAgent(sessionId, launched.agentId);
      onEvent?.(event);
    });
  } catch (error) {
    outcome = failedOutcome(error);
  }
  const stopped = launched.context.abortController.signal.aborted;
  const status = stopped ? "stopped" : outcome.reason === "completed" ? "completed" : "failed";
  setAgentStatus(sessionId, launched.agentId, status);
  const worktree = launched.worktree ? await finishWorktree(launched.worktree) : undefined;
  return {
    status,
    outcome,
    usage: {
      turns: outcome.turns,
      toolCalls,
      inputTokens: outcome.usage.inputTokens + outcome.usage.cacheCreationInputTokens,
      outputTokens: outcome.usage.outputTokens,
      cacheReadInputTokens: outcome.usage.cacheReadInputTokens,
      ...(outcome.costUsd !== undefined ? { costUsd: outcome.costUsd } : {}),
      durationMs: Math.round(performance.now() - started),
    },
    ...(worktree ? { worktree } : {}),
  };
}

/** One line for the parent: who ran, how long, what it cost. */
export function usageLine(
  launched: Pick<LaunchedAgent, "agentId" | "type">,
  model: string,
  usage: AgentUsageSummary,
): string {
  const parts = [
    `${launched.agentId} (${launched.type.name}, ${model})`,
    `${usage.turns} turn${usage.turns === 1 ? "" : "s"}`,
    `${usage.toolCalls} tool call${usage.toolCalls === 1 ? "" : "s"}`,
    `${usage.inputTokens + usage.cacheReadInputTokens} input tokens (${usage.cacheReadInputTokens} cached), ${usage.outputTokens} output`,
    ...(usage.costUsd !== undefined ? [`$${usage.costUsd.toFixed(4)}`] : []),
    `${(usage.durationMs / 1000).toFixed(1)} s`,
  ];
  return parts.join(" · ");
}

export function worktreeLine(worktree: WorktreeResult): string {
  return worktree.kept
    ? `Worktree: ${worktree.path} on branch ${worktree.branch} (${worktree.changedFiles} uncommitted change${worktree.changedFiles === 1 ? "" : "s"}, ${worktree.commits} commit${worktree.commits === 1 ? "" : "s"}); merge or delete the branch when done.`
    : `Worktree: the agent changed nothing, so ${worktree.path} and branch ${worktree.branch} were removed.`;
}

/** The report as the parent reads it: the final text, or why there is none. */
export function reportText(result: AgentRunResult): string {
  const text = result.outcome.text.trim();
  if (result.status === "completed") return text || "(the agent finished without a report)";
  const why =
    result.status === "stopped"
      ? "it was stopped"
      : `${result.outcome.reason}${result.outcome.detail ? `: ${result.outcome.detail}` : ""}`;
  return `The agent did not finish (${why}).${text ? ` Its last message:\n${text}` : " It left no report."}`;
}

/** One line of progress for a sub-agent's event, or undefined. */
export function progressLine(event: AgentEvent): string | undefined {
  if (event.type === "assistant") {
    const content = typeof event.message.content === "string" ? [] : event.message.content;
    const lines: string[] = [];
    for (const block of content) {
      if (block.type === "text" && block.text.trim()) lines.push(block.text.trim());
      if (block.type === "tool_use") lines.push(`→ ${block.name} ${clip(JSON.stringify(block.input), 160)}`);
    }
    return lines.length > 0 ? lines.join("\n") : undefined;
  }
  if (event.type === "tool_result" && event.result.isError)
    return `  ✗ ${event.result.toolName}: ${clip(resultText(event.result.block.content), 200)}`;
  return undefined;
}

function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ");
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

const MAX_NOTIFICATION_REPORT_CHARS = 10_000;

/** Starts the sub-agent as a background task; resolves with the task's id as soon as it runs. */
export async function startInBackground(
  launched: LaunchedAgent,
  args: { context: ToolUseContext; runtime: AgentRuntime; description: string },
): Promise<{ taskId: string; outputPath: string }> {
  const sessionId = args.context.options.sessionId;
  const info = await registerBackgroundTask(
    sessionId,
    {
      kind: "agent",
      id: launched.agentId,
      command: `${launched.type.name}: ${args.description}`,
      description: args.description,
      cwd: launched.cwd,
      outputDir: args.context.options.toolResultsDir,
    },
    (_id, outputPath) => {
      const log = (text: string) => appendFileSync(outputPath, `${text}\n`, { mode: RESULT_FILE_MODE });
      log(`${launched.agentId} (${launched.type.name}) started: ${args.description}`);
      const done = runToEnd(launched, sessionId, (event) => {
        const line = progressLine(event);
        if (line) log(line);
      }).then((result) => {
        const report = reportText(result);
        const tail = [usageLine(launched, launched.loop.model, result.usage)];
        if (result.worktree) tail.push(worktreeLine(result.worktree));
        log(`\n--- Report of ${launched.agentId} (${result.status}) ---\n${report}\n\n${tail.join("\n")}`);
        if (result.status !== "stopped")
          args.runtime.send(notification(launched, args.description, result, report));
        return {
          status:
            result.status === "completed"
              ? ("completed" as const)
              : result.status === "stopped"
                ? ("killed" as const)
                : ("failed" as const),
          exitCode: null,
          ...(result.status === "failed" ? { exitNote: result.outcome.detail ?? result.outcome.reason } : {}),
        };
      });
      return { stop: () => stopAgent(launched, "Stopped with TaskStop"), done };
    },
  );
  return { taskId: info.id, outputPath: info.outputPath };
}

function notification(
  launched: LaunchedAgent,
  description: string,
  result: AgentRunResult,
  report: string,
): string {
  const clipped =
    report.length > MAX_NOTIFICATION_REPORT_CHARS
      ? `${report.slice(0, MAX_NOTIFICATION_REPORT_CHARS)}\n[report cut; the whole of it: TaskOutput task_id "${launched.agentId}"]`
      : report;
  return `<task-notification>\nBackground agent ${launched.agentId} ("${description}") ${result.status}.\n${clipped}\n</task-notification>`;
}
