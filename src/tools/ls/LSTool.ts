// LS: a folder as an indented tree, .gitignore-aware, capped. Read-only, concurrency-safe.

import { readFileSync } from "node:fs";
import * as z from "zod";
import { pathRuleMatcher } from "../../permissions/pathRules.ts";
import { ToolError } from "../../tool/errors.ts";
import { buildTool, type Tool } from "../../tool/Tool.ts";
import { checkSearchPermission, resolveSearchRoot, validateSearchPath } from "../search-shared/searchRoot.ts";
import { lsToolMeta } from "./meta.ts";
import { type TreeEntry, walkTree } from "./walkTree.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

export const LS_MAX_ENTRIES = 1_000;

export interface LSInput {
  path?: string;
  ignore?: string[];
}

export interface LSOutput {
  root: string;
  entries: TreeEntry[];
  truncated: boolean;
}

export const lsInputSchema = z.strictObject({
  path: z
    .string()
    .optional()
    .describe(
      "The folder to list, absolute or relative to the current directory. Default: the current directory",
    ),
  ignore: z
    .array(z.string())
    .optional()
    .describe('Patterns to leave out, .gitignore syntax relative to the folder, e.g. ["*.log", "dist/"]'),
});

/** `- name` lines, two spaces per level, folders with a trailing slash, the root first. */
export function formatTree(output: LSOutput): string {
  const children = new Map<string, TreeEntry[]>();
  for (const entry of output.entries) {
    const slash = entry.path.lastIndexOf("/");
    const parent = slash === -1 ? "" : entry.path.slice(0, slash);
    let list = children.get(parent);
    if (!list) {
      list = [];
      children.set(parent, list);
    }
    list.push(entry);
  }
  const lines = [`- ${output.root.endsWith("/") ? output.root : `${output.root}/`}`];
  const render = (parent: string, depth: number) => {
    for (const entry of children.get(parent) ?? []) {
      const name = entry.path.slice(entry.path.lastIndexOf("/") + 1);
      lines.push(`${"  ".repeat(depth)}- ${name}${entry.isDirectory ? "/" : ""}`);
      if (entry.isDirectory) render(entry.path, depth + 1);
    }
  };
  render("", 1);
  const tree = lines.join("\n");
  if (!output.truncated) return tree;
  return (
    `There are more than ${output.entries.length} files and folders under ${output.root}. ` +
    `The first ${output.entries.length}, top levels first, are listed below. ` +
    "List a subfolder with LS, or use Glob or Grep, to see the rest.\n\n" +
    tree
  );
}

export const LSTool: Tool<LSInput, LSOutput> = buildTool<LSInput, LSOutput>({
  ...lsToolMeta,
  searchHint: "list a folder as a tree",
  inputSchema: lsInputSchema,
  maxResultSizeChars: 100_000,
  ruleMatcher: pathRuleMatcher,
  isReadOnly: true,
  isConcurrencySafe: true,
  interruptBehavior: () => "cancel",
  prompt: () => PROMPT,
  description: (input) => `List ${input.path ?? "the current directory"}`,
  getPath: (input) => input.path ?? ".",
  userFacingName: () => "List",
  toAutoClassifierInput: (input) => input.path ?? ".",
  validateInput: (input, context) =>
    validateSearchPath(input.path, context, { directoryOnly: true, toolName: lsToolMeta.name }),
  checkPermissions: (input, context) => checkSearchPermission(LSTool, input.path, input, context),
  async call(input, context) {
    const root = await resolveSearchRoot(LSTool, input, input.path, context);
    if (!root.isDirectory)
      throw new ToolError(
        "not_a_directory",
        `${root.absolute} is a file, not a folder. Use Read to see a file.`,
      );
    const walk = await walkTree(root.absolute, {
      maxEntries: LS_MAX_ENTRIES,
      ignoreGlobs: input.ignore ?? [],
      denyPatterns: root.denyPatterns,
      signal: context.abortController.signal,
    });
    return { data: { root: root.absolute, entries: walk.entries, truncated: walk.truncated } };
  },
  mapToolResultToToolResultBlockParam: (output, toolUseId) => ({
    type: "tool_result",
    tool_use_id: toolUseId,
    content: formatTree(output),
  }),
  renderToolUse: (input) => ({ kind: "text", text: `path: "${input.path ?? "."}"` }),
  renderToolResult: (output) => ({
    kind: "text",
    text: `Listed ${output.entries.length} entr${output.entries.length === 1 ? "y" : "ies"}${output.truncated ? " (truncated)" : ""}`,
  }),
});
