// An input rewritten anywhere in the pipeline is decided again: by a PreToolUse hook, by a
// PermissionRequest hook that approves, and by the person (or an SDK callback) while approving. Real
// Write tool, real files in a temp project.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createToolUseContext } from "../tool/createContext.ts";
import type { Tool } from "../tool/Tool.ts";
import { createFileToolSession, type FileToolSession } from "../tools/shared/testSession.ts";
import { WriteTool } from "../tools/write/WriteTool.ts";
import { type ResultEvent, runToolUse } from "./runToolUse.ts";
import type { ApprovalAnswer, PipelineServices, PreToolUseHookResult, ToolHookRunner } from "./services.ts";

let session: FileToolSession;

beforeEach(() => {
  session = createFileToolSession();
  mkdirSync(session.path(".git", "hooks"), { recursive: true });
});
afterEach(() => session.cleanup());

function context(rules: { ask?: string[]; allow?: string[] } = {}) {
  return createToolUseContext({ tools: [WriteTool as Tool], cwd: session.root, ...rules });
}

async function run(
  input: Record<string, unknown>,
  services: PipelineServices,
  rules = {},
): Promise<ResultEvent> {
  let result: ResultEvent | undefined;
  const use = { type: "tool_use" as const, id: "w1", name: "Write", input };
  for await (const event of runToolUse(use, context(rules), services))
    if (event.type === "result") result = event;
  return result as ResultEvent;
}

const noHook: PreToolUseHookResult = { additionalContext: [], userMessages: [], outcomes: [] };

function permissionRequestHook(updatedInput: Record<string, unknown>): ToolHookRunner {
  return {
    preToolUse: async () => noHook,
    postToolUse: async () => ({ additionalContext: [], userMessages: [], outcomes: [] }),
    postToolUseFailure: async () => ({ additionalContext: [], userMessages: [], outcomes: [] }),
    async permissionRequest() {
      return {
        decision: { behavior: "allow" as const, updatedInput, hookName: "redirect.sh" },
        userMessages: [],
        outcomes: [],
      };
    },
  } as ToolHookRunner;
}

function approvingPerson(answer: (input: unknown) => unknown): PipelineServices {
  return {
    prompter: {
      name: "person",
      ask: async (request): Promise<ApprovalAnswer> => ({
        behavior: "allow",
        choice: "once",
        updatedInput: answer(request.input),
      }),
    },
  };
}

const plain = () => ({ file_path: session.path("notes.txt"), content: "hi\n" });

describe("a PermissionRequest hook that approves and rewrites", () => {
  it("cannot redirect a write to a protected path", async () => {
    const target = session.path(".git", "hooks", "pre-commit");
    const result = await run(plain(), { hooks: permissionRequestHook({ file_path: target, content: "x" }) });
    expect(result.isError).toBe(true);
    expect(String(result.block.content)).toMatch(/needs its own approval/);
    expect(existsSync(target)).toBe(false);
  });

  it("cannot redirect a write to a path an ask rule covers", async () => {
    const target = session.path("secrets.txt");
    const result = await run(
      plain(),
      { hooks: permissionRequestHook({ file_path: target, content: "x" }) },
      { ask: ["Edit(./secrets.txt)"] },
    );
    expect(result.isError).toBe(true);
    expect(existsSync(target)).toBe(false);
  });

  it("may change the input to another ordinary call, which then runs", async () => {
    const target = session.path("other.txt");
    const result = await run(plain(), { hooks: permissionRequestHook({ file_path: target, content: "x" }) });
    expect(result.isError).toBe(false);
    expect(existsSync(target)).toBe(true);
  });
});

describe("the person (or an SDK callback) approving with a changed input", () => {
  it("handing back the same input is an ordinary approval", async () => {
    const result = await run(
      plain(),
      approvingPerson((input) => ({ ...(input as object) })),
    );
    expect(result.isError).toBe(false);
    expect(existsSync(session.path("notes.txt"))).toBe(true);
  });

  it("a change into a protected path is refused", async () => {
    const target = session.path(".git", "hooks", "pre-commit");
    const result = await run(
      plain(),
      approvingPerson(() => ({ file_path: target, content: "x" })),
    );
    expect(result.isError).toBe(true);
    expect(existsSync(target)).toBe(false);
  });
});

describe("a PreToolUse hook that rewrites", () => {
  function rewriting(updatedInput: Record<string, unknown>): ToolHookRunner {
    return {
      ...permissionRequestHook({}),
      preToolUse: async () => ({ ...noHook, updatedInput }),
    } as ToolHookRunner;
  }

  it("goes through the tool's own validation again", async () => {
    // Writing over a file nobody read fails Write's validation, also when a hook points the call there.
    const existing = session.path("package.json");
    writeFileSync(existing, "{}\n");
    const result = await run(
      plain(),
      { hooks: rewriting({ file_path: existing, content: "x" }) },
      { allow: ["Write"] },
    );
    expect(result.isError).toBe(true);
    expect(String(result.block.content)).toMatch(/PreToolUse hook rewrote the input/);
  });

  it("is decided again: a rewrite into a protected path asks, and with nobody to ask is refused", async () => {
    const target = session.path(".git", "hooks", "pre-commit");
    const result = await run(
      plain(),
      { hooks: rewriting({ file_path: target, content: "x" }) },
      { allow: ["Write"] },
    );
    expect(result.isError).toBe(true);
    expect(existsSync(target)).toBe(false);
  });
});
