// Small real tools for the MCP tests: structured output, progress, a process that must die on
// cancellation, and a tool that always needs approval.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod";
import { buildTool, type Tool } from "../../tool/Tool.ts";

const EchoOutput = z.object({ text: z.string(), length: z.number() });

export const EchoTool = buildTool<{ text: string }, z.infer<typeof EchoOutput>>({
  name: "Echo",
  inputSchema: z.strictObject({ text: z.string().describe("what to echo") }),
  outputSchema: EchoOutput,
  maxResultSizeChars: 10_000,
  description: () => "Echo text",
  prompt: () => "Echoes its text back.",
  isReadOnly: true,
  isConcurrencySafe: true,
  checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),
  async call(input) {
    return { data: { text: input.text, length: input.text.length } };
  },
  mapToolResultToToolResultBlockParam: (output, id) => ({
    type: "tool_result",
    tool_use_id: id,
    content: output.text,
  }),
});

export const StepsTool = buildTool<{ steps: number }, string, { step: number }>({
  name: "Steps",
  inputSchema: z.strictObject({ steps: z.number().int().min(1).max(20) }),
  maxResultSizeChars: 10_000,
  description: () => "Count steps",
  prompt: () => "Reports progress for each step.",
  isReadOnly: true,
  isConcurrencySafe: true,
  checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),
  async call(input, _context, _canUse, parent, onProgress) {
    for (let step = 1; step <= input.steps; step++) {
      onProgress({ toolUseId: parent?.id ?? "", data: { step } });
      await new Promise((resolve) => setImmediate(resolve));
    }
    return { data: `${input.steps} steps done` };
  },
  renderToolProgress: (progress) => ({ kind: "progress", text: `step ${progress.step}` }),
});

/** Runs `sleep` in its own process group, reports its pid as progress, and kills the group on abort. */
export const SleepTool = buildTool<{ seconds: number }, string, { pid: number }>({
  name: "Sleep",
  inputSchema: z.strictObject({ seconds: z.number().positive().max(120) }),
  maxResultSizeChars: 10_000,
  description: () => "Sleep",
  prompt: () => "Sleeps in a child process.",
  interruptBehavior: () => "cancel",
  async call(input, context, _canUse, parent, onProgress) {
    const signal = context.abortController.signal;
    const child = spawn("sleep", [String(input.seconds)], { detached: true, stdio: "ignore" });
    const pid = child.pid!;
    onProgress({ toolUseId: parent?.id ?? "", data: { pid } });
    const kill = () => {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // already gone
      }
    };
    signal.addEventListener("abort", kill, { once: true });
    return new Promise((resolve) => {
      child.once("exit", (code, sig) => {
        signal.removeEventListener("abort", kill);
        resolve({ data: `sleep ended (${code ?? sig})` });
      });
    });
  },
  renderToolProgress: (progress) => ({ kind: "text", text: `pid ${progress.pid}` }),
});

/** Writes a marker file in the project root; not read-only, so it asks unless a rule allows it. */
export const TouchTool = buildTool<{ name: string }, string>({
  name: "Touch",
  inputSchema: z.strictObject({ name: z.string().regex(/^[a-z0-9.-]+$/) }),
  maxResultSizeChars: 10_000,
  description: (input) => `Create ${input.name}`,
  prompt: () => "Creates an empty file in the project root.",
  isDestructive: false,
  async call(input, context) {
    const path = join(context.getAppState().toolPermissionContext.projectRoot, input.name);
    writeFileSync(path, "");
    return { data: `created ${path}` };
  },
});

export function testTools(): Tool[] {
  return [EchoTool, StepsTool, SleepTool, TouchTool] as unknown as Tool[];
}
