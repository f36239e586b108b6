// One way to change a call's input once the pipeline has it: a PreToolUse hook's updatedInput, a
// PermissionRequest hook's, or the person's (or SDK callback's) while approving. The new input passes
// the schema, the tool's own validation and the whole permission decision again, so a rewrite can
// never carry a call somewhere its approval did not look.
import type { PermissionDecision } from "../permissions/types.ts";
import type { ToolUseContext } from "../tool/context.ts";
import { errorMessage } from "../tool/errors.ts";
import { parseContext } from "../tool/parseContext.ts";
import type { Tool } from "../tool/Tool.ts";

export type Decide = (tool: Tool, input: unknown, context: ToolUseContext) => Promise<PermissionDecision>;

export type Revision =
  | { ok: true; input: unknown; decision: PermissionDecision }
  | { ok: false; code: "invalid_input" | "validation_failed"; message: string };

function schemaMessage(
  tool: Tool,
  error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> },
): string {
  const issues = error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join(".") || "input"}: ${issue.message}`);
  return `the new input for ${tool.name} is not valid: ${issues.join("; ")}`;
}

/** Checks a revised input as a new call's input, and decides it. */
export async function reviseInput(
  tool: Tool,
  updated: unknown,
  context: ToolUseContext,
  decide: Decide,
): Promise<Revision> {
  const checked = tool.inputSchema.safeParse(updated, parseContext());
  if (!checked.success)
    return { ok: false, code: "invalid_input", message: schemaMessage(tool, checked.error) };
  const input: unknown = checked.data;
  try {
    const validation = await tool.validateInput?.(input, context);
    if (validation && validation.result === false)
      return { ok: false, code: "validation_failed", message: validation.message };
  } catch (error) {
    return {
      ok: false,
      code: "validation_failed",
      message: `${tool.name} could not validate the new input: ${errorMessage(error)}`,
    };
  }
  try {
    return { ok: true, input, decision: await decide(tool, input, context) };
  } catch (error) {
    const reason = `permission check failed: ${errorMessage(error)}`;
    return {
      ok: true,
      input,
      decision: {
        behavior: "ask",
        message: `The permission check for ${tool.name} failed, so it needs approval`,
        decisionReason: { type: "default", reason },
      },
    };
  }
}

/** Whether two inputs are the same call (an approver that hands back what it was shown changed nothing). */
export function sameInput(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  try {
    return stableJson(a) === stableJson(b);
  } catch {
    return false;
  }
}

function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)),
        )
      : inner,
  );
}
