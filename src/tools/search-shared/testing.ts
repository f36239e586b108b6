// Helpers for the search tools' tests: real trees in temp folders, and calls through tool.call().
import { mkdir, mkdtemp, realpath, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ToolUseContext } from "../../tool/context.ts";
import { createToolUseContext, type SessionOptions } from "../../tool/createContext.ts";
import type { Tool } from "../../tool/Tool.ts";

/** A temp folder (symlinks resolved, so paths compare equal to what the tools print). */
export async function makeTempDir(prefix = "keel-search-"): Promise<string> {
  return realpath(await mkdtemp(join(tmpdir(), prefix)));
}

export async function removeDir(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true });
}

/** Writes files (relative path -> content); a path ending in "/" makes an empty folder. */
export async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const absolute = join(root, path);
    if (path.endsWith("/")) {
      await mkdir(absolute, { recursive: true });
      continue;
    }
    await mkdir(dirname(absolute), { recursive: true });
    await writeFile(absolute, content);
  }
}

/** Sets modification times: seconds since the epoch, per relative path. */
export async function setMtimes(root: string, mtimes: Record<string, number>): Promise<void> {
  for (const [path, seconds] of Object.entries(mtimes)) await utimes(join(root, path), seconds, seconds);
}

export function searchContext(cwd: string, options: Partial<SessionOptions> = {}): ToolUseContext {
  return createToolUseContext({ tools: [], cwd, ...options });
}

const allowAll = async () => ({ behavior: "allow" as const });

/** Parses the input with the tool's schema, as the pipeline would, then calls it. */
export async function callTool<I, O>(tool: Tool<I, O>, input: unknown, context: ToolUseContext): Promise<O> {
  const parsed = tool.inputSchema.parse(input) as I;
  const result = await tool.call(parsed, context, allowAll, undefined, () => {});
  return result.data;
}

/** The text the model would read for a call. */
export async function callToolText<I, O>(
  tool: Tool<I, O>,
  input: unknown,
  context: ToolUseContext,
): Promise<string> {
  const output = await callTool(tool, input, context);
  const block = tool.mapToolResultToToolResultBlockParam(output, "test");
  return typeof block.content === "string" ? block.content : JSON.stringify(block.content);
}
