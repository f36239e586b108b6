// The path policy of the file tools: reads inside the working directories are allowed, writes inside
// them ask (allowed in acceptEdits), anything outside asks, protected paths and files with more than
// one name (hard links) ask even in bypass mode.
// Deny, ask and allow rules are applied by the engine (through the tool's path rule matcher): outside
// the working directories this check says "ask unless a rule covers it" (passthrough).
import { stat } from "node:fs/promises";
import { dirname, relative, sep } from "node:path";
import { findDenyRule } from "../../permissions/engine.ts";
import {
  callPath,
  isInWorkingDirectories,
  protectedPathReason,
  workingDirectoryOf,
} from "../../permissions/paths.ts";
import { escapeRuleContent, formatRuleValue } from "../../permissions/rules.ts";
import type { PermissionResult, RuleSuggestion } from "../../permissions/types.ts";
import { type ToolUseContext, workingDirectories } from "../../tool/context.ts";
import { ToolError } from "../../tool/errors.ts";
import type { Tool } from "../../tool/Tool.ts";
import { agentMemoryAccess } from "./agentMemoryAccess.ts";

export type FileAccess = "read" | "write";

function folderRule(ruleName: string, absolutePath: string, context: ToolUseContext): string {
  const permissionContext = context.getAppState().toolPermissionContext;
  const folder = dirname(absolutePath);
  const root = permissionContext.ruleRoots.session ?? permissionContext.projectRoot;
  const rel = relative(root, folder);
  const insideRoot = workingDirectoryOf(absolutePath, permissionContext) === permissionContext.projectRoot;
  const specifier = insideRoot
    ? rel === ""
      ? "/**"
      : `/${rel.split(sep).join("/")}/**`
    : `/${folder.split(sep).join("/")}/**`;
  return `${ruleName}(${escapeRuleContent(specifier)})`;
}

function suggestions(ruleName: string, absolutePath: string, context: ToolUseContext): RuleSuggestion[] {
  return [{ behavior: "allow", rule: folderRule(ruleName, absolutePath, context), destination: "session" }];
}

function outsideMessage(tool: Tool, verb: string, absolutePath: string, context: ToolUseContext): string {
  const dirs = workingDirectories(context.getAppState().toolPermissionContext).join(", ");
  return `${tool.name} wants to ${verb} ${absolutePath}, which is outside the working directories (${dirs}). Approve it, or add its folder with --add-dir.`;
}

/** Outside the working directories: the engine asks with this reason unless a rule covers the path. */
function askUnlessRuleCovers<I>(
  tool: Tool<I>,
  input: I,
  verb: "read" | "change",
  absolutePath: string,
  context: ToolUseContext,
): PermissionResult<I> {
  return {
    behavior: "passthrough",
    updatedInput: input,
    message: outsideMessage(tool as Tool, verb, absolutePath, context),
    decisionReason: {
      type: "tool",
      reason: `${absolutePath} is outside the working directories`,
      check: "outside-working-dirs",
    },
    suggestions: suggestions(verb === "read" ? "Read" : "Edit", absolutePath, context),
  };
}

/** Read-only access: allowed inside the working directories; outside asks unless a rule covers it. */
export async function checkReadPermission<I>(
  tool: Tool<I>,
  input: I,
  path: string,
  context: ToolUseContext,
): Promise<PermissionResult<I>> {
  const state = context.getAppState();
  const absolutePath = callPath(path, state);
  const memory = agentMemoryAccess(input, absolutePath, "read", context);
  if (memory) return memory;
  if (isInWorkingDirectories(absolutePath, state.toolPermissionContext, state.cwd)) {
    return {
      behavior: "allow",
      updatedInput: input,
      decisionReason: {
        type: "tool",
        reason: "reading inside the working directories",
        check: "inside-working-dirs",
      },
    };
  }
  return askUnlessRuleCovers(tool, input, "read", absolutePath, context);
}

/** How many names the file at `path` has (following links); 1 for a missing file or a folder. */
async function linkCount(path: string): Promise<number> {
  try {
    const stats = await stat(path);
    return stats.isFile() ? stats.nlink : 1;
  } catch {
    return 1;
  }
}

/**
 * Changing access: a memory agent's own memory files are allowed (agentMemoryAccess.ts, the one
 * exemption); protected paths ask (a safety check: even in bypass mode); inside the working
 * directories acceptEdits allows and other modes leave it to the rules (no rule: ask); outside asks.
 */
export async function checkWritePermission<I>(
  tool: Tool<I>,
  input: I,
  path: string,
  context: ToolUseContext,
): Promise<PermissionResult<I>> {
  const state = context.getAppState();
  const permissionContext = state.toolPermissionContext;
  const absolutePath = callPath(path, state);
  const memory = agentMemoryAccess(input, absolutePath, "write", context);
  if (memory) return memory;
  const protectedReason = protectedPathReason(absolutePath, state.cwd, permissionContext);
  if (protectedReason) {
    return {
      behavior: "ask",
      message: `${tool.name} wants to change a protected path: ${protectedReason}. This always needs approval.`,
      decisionReason: { type: "safetyCheck", reason: protectedReason, check: "protected-path" },
    };
  }
  const names = await linkCount(absolutePath);
  if (names > 1) {
    const reason = `${absolutePath} has ${names} names (hard links): another may be a protected file or one outside the working directories, and no path shows where`;
    return {
      behavior: "ask",
      message: `${tool.name} wants to change ${absolutePath}, a file with ${names} names (hard links): another may be a protected file or one outside the working directories. This always needs approval.`,
      decisionReason: { type: "safetyCheck", reason, check: "hard-link" },
    };
  }
  if (isInWorkingDirectories(absolutePath, permissionContext, state.cwd)) {
    if (permissionContext.mode === "acceptEdits") {
      return {
        behavior: "allow",
        updatedInput: input,
        decisionReason: { type: "mode", mode: "acceptEdits" },
      };
    }
    return {
      behavior: "passthrough",
      updatedInput: input,
      message: `${tool.name} wants to change ${absolutePath}.`,
      suggestions: suggestions("Edit", absolutePath, context),
    };
  }
  return askUnlessRuleCovers(tool, input, "change", absolutePath, context);
}

/**
 * The engine's deny rule for this call as an error, for validateInput (before the path is touched, so
 * a denied path's existence is not told) and for calls made without the pipeline.
 */
export async function denyRuleError(
  tool: Tool,
  input: unknown,
  context: ToolUseContext,
  access: FileAccess,
): Promise<ToolError | undefined> {
  const rule = await findDenyRule(tool, input, context);
  if (!rule) return undefined;
  const path = tool.getPath?.(input) ?? "this path";
  const [subject, verb] =
    access === "read" ? [`Reading ${path}`, "read"] : [`${tool.name} on ${path}`, "change"];
  return new ToolError(
    "permission_denied",
    `${subject} is denied by the ${rule.source} rule ${formatRuleValue(rule.value)}. Do not try to ${verb} it another way.`,
  );
}
