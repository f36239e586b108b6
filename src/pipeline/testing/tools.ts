// Tools and latches for pipeline tests: real tools built with buildTool, no mocks of the pipeline.
import * as z from "zod";
import type { ToolUseContext } from "../../tool/context.ts";
import { createToolUseContext, type SessionOptions } from "../../tool/createContext.ts";
import { resultText, type ToolUseBlock } from "../../tool/messages.ts";
import { buildTool, type Tool, type ToolDef } from "../../tool/Tool.ts";
import { type ResultEvent, runToolUse } from "../runToolUse.ts";
import type { PipelineServices } from "../services.ts";

export class Latch {
  #resolve!: () => void;
  readonly promise: Promise<void>;
  opened = false;
  constructor() {
    this.promise = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }
  open(): void {
    this.opened = true;
    this.#resolve();
  }
}

export function echoTool(
  overrides: Partial<ToolDef<{ text: string }, string>> = {},
): Tool<{ text: string }, string> {
  return buildTool<{ text: string }, string>({
    name: "Echo",
    inputSchema: z.strictObject({ text: z.string() }),
    maxResultSizeChars: 10_000,
    description: () => "echo",
    prompt: () => "Echoes its text.",
    async call(input) {
      return { data: input.text };
    },
    ...overrides,
  });
}

/** A tool whose calls wait on the test, recording how many run at once. */
export function gatedTool(
  name: string,
  options: { safe: boolean; readOnly?: boolean; cancelSiblings?: boolean },
) {
  const log: string[] = [];
  let running = 0;
  let maxRunning = 0;
  const gates = new Map<string, Latch>();
  const gate = (id: string) => {
    let latch = gates.get(id);
    if (!latch) {
      latch = new Latch();
      gates.set(id, latch);
    }
    return latch;
  };
  const tool = buildTool<{ id: string; fail?: boolean }, string>({
    name,
    inputSchema: z.strictObject({ id: z.string(), fail: z.boolean().optional() }),
    maxResultSizeChars: 10_000,
    description: () => name,
    prompt: () => name,
    isConcurrencySafe: options.safe,
    isReadOnly: options.readOnly ?? options.safe,
    errorCancelsSiblings: options.cancelSiblings ?? false,
    interruptBehavior: () => "cancel",
    checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),
    async call(input, context) {
      running++;
      maxRunning = Math.max(maxRunning, running);
      log.push(`start ${input.id}`);
      try {
        const signal = context.abortController.signal;
        await Promise.race([
          gate(input.id).promise,
          new Promise((_, reject) => {
            if (signal.aborted) reject(signal.reason);
            signal.addEventListener("abort", () => reject(signal.reason), { once: true });
          }),
        ]);
        if (input.fail) throw new Error(`${input.id} failed`);
        return { data: `done ${input.id}` };
      } finally {
        running--;
        log.push(`end ${input.id}`);
      }
    },
  });
  return {
    tool,
    log,
    release: (id: string) => gate(id).open(),
    maxRunning: () => maxRunning,
    running: () => running,
  };
}

export function call(
  name: string,
  input: unknown,
  id = `${name}-${Math.random().toString(36).slice(2, 8)}`,
): ToolUseBlock {
  return { type: "tool_use", id, name, input };
}

/** Runs one call through the whole pipeline and returns its result event (an error when none came). */
export async function pipelineResult(
  use: ToolUseBlock,
  context: ToolUseContext,
  services: PipelineServices = {},
): Promise<ResultEvent> {
  let result: ResultEvent | undefined;
  for await (const event of runToolUse(use, context, services)) if (event.type === "result") result = event;
  if (!result) throw new Error(`no result for ${use.name}`);
  return result;
}

/** What the model is told of a result: whether it failed, its text, and the error code if any. */
export function resultSummary(result: ResultEvent): { isError: boolean; text: string; code?: string } {
  return {
    isError: result.isError,
    text: resultText(result.block.content),
    ...(result.errorCode ? { code: result.errorCode } : {}),
  };
}

export function testContext(tools: Tool[], options: Omit<SessionOptions, "tools"> = {}): ToolUseContext {
  return createToolUseContext({ tools, cwd: process.cwd(), ...options });
}

/** Waits until a condition holds, checking after each macrotask. */
export async function until(condition: () => boolean, what = "condition"): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}
