// TodoWrite: the session's (or sub-agent's) checklist, replaced whole on every call; at most one in_progress.
import { readFileSync } from "node:fs";
import * as z from "zod";
import type { ToolUseContext } from "../../tool/context.ts";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { allowedByTool, buildTool, type Tool } from "../../tool/Tool.ts";
import {
  readSessionJson,
  sessionDataFile,
  withFileLock,
  writeSessionJson,
} from "../tasks-shared/sessionData.ts";
import { isVerificationText, UNVERIFIED_TASKS_BEFORE_NUDGE } from "../tasks-shared/verification.ts";
import { todoWriteToolMeta } from "./meta.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

export const TODO_STATUSES = ["pending", "in_progress", "completed"] as const;

const todoSchema = z.strictObject({
  content: z.string().trim().min(1).describe("The step, in imperative form"),
  status: z.enum(TODO_STATUSES),
  activeForm: z.string().trim().min(1).describe("The step in present continuous form, shown while it runs"),
});
export type Todo = z.infer<typeof todoSchema>;

const inputSchema = z.strictObject({
  todos: z.array(todoSchema).describe("The whole updated todo list"),
});
export type TodoWriteInput = z.infer<typeof inputSchema>;

export interface TodoWriteOutput {
  oldTodos: Todo[];
  newTodos: Todo[];
  /** True when every item was completed and the stored list was cleared. */
  cleared: boolean;
  nudge?: string;
}

const storedSchema = z.object({ todos: z.array(todoSchema) });

/** Each sub-agent keeps its own list beside the main agent's. */
export function todoFilePath(context: ToolUseContext): string {
  return sessionDataFile(
    context,
    "todos",
    context.agentId === undefined ? undefined : `agent-${context.agentId}`,
  );
}

export async function readTodos(context: ToolUseContext): Promise<Todo[]> {
  const raw = await readSessionJson(todoFilePath(context));
  const parsed = storedSchema.safeParse(raw);
  return parsed.success ? parsed.data.todos : [];
}

function verificationNudge(todos: readonly Todo[]): string | undefined {
  if (todos.length < UNVERIFIED_TASKS_BEFORE_NUDGE) return undefined;
  if (todos.some((todo) => isVerificationText(todo.content))) return undefined;
  return `You closed a list of ${todos.length} items without a verification step. Before reporting the work as done, verify it: run the tests, the build or the program and check the result.`;
}

export const TodoWriteTool: Tool<TodoWriteInput, TodoWriteOutput> = buildTool<
  TodoWriteInput,
  TodoWriteOutput
>({
  ...todoWriteToolMeta,
  searchHint: "write the session todo checklist",
  inputSchema,
  maxResultSizeChars: 10_000,
  prompt: () => PROMPT,
  description: (input) => `Update todos (${input.todos.length} items)`,
  // Changes only the session's own checklist, never the workspace: allowed in plan mode too.
  isReadOnly: true,
  changesSessionState: true,
  isConcurrencySafe: false,
  checkPermissions: allowedByTool("edits the session's own todo list"),

  validateInput(input) {
    const running = input.todos.filter((todo) => todo.status === "in_progress");
    if (running.length > 1)
      return {
        result: false,
        errorCode: "invalid_input",
        message: `At most one todo may be in_progress at a time; ${running.length} are (${running.map((todo) => `"${todo.content}"`).join(", ")}). Keep the one you are working on in_progress and set the others to pending or completed.`,
      };
    return { result: true };
  },

  async call(input, context) {
    const path = todoFilePath(context);
    return withFileLock(path, async () => {
      const oldTodos = await readTodos(context);
      const allDone = input.todos.length > 0 && input.todos.every((todo) => todo.status === "completed");
      writeSessionJson(path, { todos: allDone ? [] : input.todos });
      const nudge = allDone ? verificationNudge(input.todos) : undefined;
      return { data: { oldTodos, newTodos: input.todos, cleared: allDone, ...(nudge ? { nudge } : {}) } };
    });
  },

  mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
    const lines = [
      "Todos have been updated. Keep using the todo list to track your progress, and go on with the current item.",
    ];
    if (output.cleared) lines.push("Every item is completed, so the list was cleared.");
    if (output.nudge) lines.push("", output.nudge);
    return { type: "tool_result", tool_use_id: toolUseId, content: lines.join("\n") };
  },
  renderToolResult: (output) => ({
    kind: "list",
    title: "Todos",
    items: output.newTodos.map(
      (todo) =>
        `${todo.status === "completed" ? "[x]" : todo.status === "in_progress" ? "[>]" : "[ ]"} ${todo.content}`,
    ),
  }),
});
