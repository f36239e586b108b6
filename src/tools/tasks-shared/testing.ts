// Test sessions for the task and todo tools: a real temp folder for session data, a real context, and a
// helper that calls a tool the way the pipeline does (schema, validation, call, result mapping).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolUseContext } from "../../tool/context.ts";
import { createToolUseContext } from "../../tool/createContext.ts";
import { ToolError } from "../../tool/errors.ts";
import { resultText } from "../../tool/messages.ts";
import type { Tool } from "../../tool/Tool.ts";
import type { SessionDataOptions } from "./sessionData.ts";

export interface TaskTestSession {
  dir: string;
  context: ToolUseContext;
  /** A second context of the same session (another process or a later run reads the same files). */
  reopen(agentId?: string): ToolUseContext;
  cleanup(): Promise<void>;
}

export async function createTaskTestSession(sessionId = "session-1"): Promise<TaskTestSession> {
  const dir = await mkdtemp(join(tmpdir(), "keel-tasks-"));
  const open = (agentId?: string): ToolUseContext => {
    const context = createToolUseContext({ tools: [], cwd: dir, sessionId });
    const options: SessionDataOptions = { tasksDir: join(dir, "tasks"), todosDir: join(dir, "todos") };
    context.options = { ...context.options, ...options };
    if (agentId !== undefined) context.agentId = agentId;
    return context;
  };
  return { dir, context: open(), reopen: open, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export interface Invocation<Output> {
  data: Output;
  text: string;
}

/** Schema, validateInput, call and mapping, as the pipeline runs them. A validation failure throws a ToolError. */
export async function invokeTool<Input, Output>(
  tool: Tool<Input, Output>,
  rawInput: unknown,
  context: ToolUseContext,
): Promise<Invocation<Output>> {
  const input = tool.inputSchema.parse(rawInput) as Input;
  const validation = await tool.validateInput?.(input, context);
  if (validation && !validation.result)
    throw new ToolError(validation.errorCode ?? "validation_failed", validation.message);
  const result = await tool.call(
    input,
    context,
    async () => ({ behavior: "allow" }),
    undefined,
    () => {},
  );
  const block = tool.mapToolResultToToolResultBlockParam(result.data, "toolu_test");
  return { data: result.data, text: resultText(block.content) };
}
