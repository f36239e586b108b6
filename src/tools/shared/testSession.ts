// Test support for the file tools: a real temporary project folder and a session context over it.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { ToolUseContext } from "../../tool/context.ts";
import { createToolUseContext, type SessionOptions } from "../../tool/createContext.ts";
import { ToolError } from "../../tool/errors.ts";
import { releaseSession } from "../../tool/sessionEnd.ts";
import type { Tool, ToolResult } from "../../tool/Tool.ts";

export interface FileToolSession {
  /** The project root (symlinks resolved, so paths compare equal to what tools report). */
  root: string;
  /** The folder holding the root, for "outside the project" files. */
  base: string;
  context: ToolUseContext;
  path(...parts: string[]): string;
  cleanup(): void;
}

export function createFileToolSession(options: Partial<SessionOptions> = {}): FileToolSession {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "keel-filetools-")));
  const root = join(base, "project");
  mkdirSync(root);
  const context = createToolUseContext({ tools: [], cwd: root, ...options });
  return {
    root,
    base,
    context,
    path: (...parts) => join(root, ...parts),
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

/**
 * The session the tests of one file share: made before the first (then `prepare` fills its project) and
 * ended after the last, as a session ends (its language servers and background tasks stopped), its
 * folder removed. Its fields are read when a test or hook runs, not when the file is collected.
 */
export function sharedFileToolSession(
  options: Partial<SessionOptions> = {},
  prepare: (session: FileToolSession) => void = () => {},
): FileToolSession {
  let session: FileToolSession | undefined;
  const current = (): FileToolSession => {
    if (!session) throw new Error("The shared session is made in beforeAll: use it in a test or a hook.");
    return session;
  };
  beforeAll(() => {
    session = createFileToolSession(options);
    prepare(session);
  });
  afterAll(async () => {
    if (!session) return;
    await releaseSession(session.context.options.sessionId);
    session.cleanup();
  });
  return {
    get root() {
      return current().root;
    },
    get base() {
      return current().base;
    },
    get context() {
      return current().context;
    },
    path: (...parts) => current().path(...parts),
    cleanup: () => current().cleanup(),
  };
}

/**
 * Runs a tool as the pipeline does once permission is granted: schema parse, validateInput (a failure
 * becomes a ToolError with the validation's code), then call().
 */
export async function runTool<I, O>(
  tool: Tool<I, O>,
  input: unknown,
  context: ToolUseContext,
): Promise<ToolResult<O>> {
  const parsed = tool.inputSchema.parse(input) as I;
  const validation = await tool.validateInput?.(parsed, context);
  if (validation && !validation.result)
    throw new ToolError(validation.errorCode ?? "validation_failed", validation.message);
  return tool.call(
    parsed,
    context,
    async () => ({ behavior: "allow" }),
    undefined,
    () => {},
  );
}

/** The text a model would see for a successful call. */
export async function runToolText<I, O>(
  tool: Tool<I, O>,
  input: unknown,
  context: ToolUseContext,
): Promise<string> {
  const { data } = await runTool(tool, input, context);
  const block = tool.mapToolResultToToolResultBlockParam(data, "toolu_test");
  return typeof block.content === "string"
    ? block.content
    : block.content
        .map((part) => (part.type === "text" ? part.text : `[image ${part.source.media_type}]`))
        .join("\n");
}

/** The ToolError a call fails with (the test fails if it succeeds). */
export async function toolError(promise: Promise<unknown>): Promise<ToolError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ToolError) return error;
    throw error;
  }
  throw new Error("expected the call to fail with a ToolError, but it succeeded");
}
