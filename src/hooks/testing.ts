// Test helpers for hooks: a tool whose input steers the protocol fixtures, a temp project, and a runner
// built from a hooks config the way settings build it.
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as z from "zod";
import type { ToolUseContext } from "../tool/context.ts";
import { createToolUseContext } from "../tool/createContext.ts";
import { buildTool, type Tool } from "../tool/Tool.ts";
import { flattenHooks, type HookEvent, type HooksConfig } from "./config.ts";
import { HookRunner } from "./runner.ts";

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "fixtures");
export const BASH_HOOK = `bash ${join(FIXTURES, "protocol-hook.sh")}`;
export const PYTHON_HOOK = `python3 ${join(FIXTURES, "protocol-hook.py")}`;

export interface ScenarioInput {
  text: string;
  pre?: string;
  post?: string;
}

export function scenarioTool(name = "Echo"): Tool<ScenarioInput, string> {
  return buildTool<ScenarioInput, string>({
    name,
    inputSchema: z.strictObject({
      text: z.string(),
      pre: z.string().optional(),
      post: z.string().optional(),
    }),
    maxResultSizeChars: 10_000,
    description: () => name,
    prompt: () => "Echoes its text.",
    async call(input) {
      if (input.text === "fail") throw new Error("the tool failed on purpose");
      return { data: input.text };
    },
  });
}

export interface HookProject {
  dir: string;
  context: ToolUseContext;
  runner(config: HooksConfig): HookRunner;
  /** Every stdin the fixture hooks received. */
  log(): Array<Record<string, unknown>>;
  cleanup(): void;
}

export function createHookProject(tools: Tool[] = [scenarioTool()]): HookProject {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "keel-hooks-")));
  const context = createToolUseContext({ tools, cwd: dir, sessionId: "session-1" });
  return {
    dir,
    context,
    runner: (config) =>
      new HookRunner({
        hooks: flattenHooks(config, "project").hooks,
        projectDir: dir,
        transcriptPath: (id) => join(dir, `${id}.jsonl`),
      }),
    log: () => {
      try {
        return readFileSync(join(dir, "hook-log.jsonl"), "utf8")
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Record<string, unknown>);
      } catch {
        return [];
      }
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A runner with one project command hook: `command` for `event` when `matcher` matches. */
export function commandHookRunner(
  projectDir: string,
  event: HookEvent,
  matcher: string,
  command: string,
): HookRunner {
  return new HookRunner({
    projectDir,
    hooks: [{ event, matcher, handler: { type: "command", command }, source: "project" }],
  });
}

export function toolHooks(
  command: string,
  options: { matcher?: string; timeout?: number; if?: string } = {},
): HooksConfig {
  const handler = {
    type: "command" as const,
    command,
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
    ...(options.if === undefined ? {} : { if: options.if }),
  };
  const group = [{ matcher: options.matcher ?? "*", hooks: [handler] }];
  return { PreToolUse: group, PostToolUse: group, PostToolUseFailure: group };
}
