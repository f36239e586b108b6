// The Bash tool's own permission check: the analyzer's verdict as a PermissionResult.
import type { PermissionResult } from "../../permissions/types.ts";
import { analyzeBashCommandNow, type DetailedVerdict } from "../../shell/analyze/analyze.ts";
import { initBashParser } from "../../shell/analyze/grammar/parse.ts";
import { sandboxExclusionOf, withoutSandbox } from "../../shell/sandbox/sandboxExclusions.ts";
import type { ToolPermissionContext, ToolUseContext } from "../../tool/context.ts";
import { errorMessage } from "../../tool/errors.ts";

type BashPermissionInput = { command: string; dangerouslyDisableSandbox?: boolean | undefined };

export const UNSANDBOXED_REFUSED =
  "This session's settings require every command to run in the OS sandbox (sandbox.allowUnsandboxedCommands is false), so dangerouslyDisableSandbox is refused. Run the command inside the sandbox, or ask the user to change what it may reach (sandbox.filesystem.allowWrite, sandbox.network.allowedDomains).";

function askMessage(verdict: DetailedVerdict): string {
  const why = `${verdict.reason}${verdict.check ? ` [${verdict.check}]` : ""}`;
  if (verdict.allowRuleApproves)
    return `This command needs a person's approval (or an allow rule naming it) in every mode: ${why}.`;
  return verdict.safety
    ? `This command needs a person's approval in every mode: ${why}.`
    : `This command needs approval: ${why}. Prefer simpler commands (plain arguments, no substitutions) inside the working directories.`;
}

/**
 * Whether this call runs outside the sandbox the session has on, or the confinement calls no person
 * approved run in: "asked" (dangerouslyDisableSandbox, which always needs a person), "refused" (the
 * settings forbid that), "excluded" (sandbox.excludedCommands, ordinary checks), or false. The Bash
 * parser must be ready.
 */
function leavesSandbox(
  input: BashPermissionInput,
  context: ToolPermissionContext,
): "asked" | "refused" | "excluded" | false {
  const { sandbox } = context;
  if (!sandbox.enabled && !sandbox.confinement) return false;
  if (input.dangerouslyDisableSandbox)
    return sandbox.allowUnsandboxedCommands === false ? "refused" : "asked";
  if (!sandbox.enabled) return false;
  return sandboxExclusionOf(input.command, context) !== undefined ? "excluded" : false;
}

export async function checkBashPermissions(
  input: BashPermissionInput,
  context: ToolUseContext,
): Promise<PermissionResult<BashPermissionInput>> {
  const { cwd, toolPermissionContext } = context.getAppState();
  try {
    await initBashParser();
  } catch (error) {
    return {
      behavior: "ask",
      message: `The bash analyzer could not start (${errorMessage(error)}), so every command needs approval.`,
      decisionReason: { type: "tool", reason: errorMessage(error), check: "parser-unavailable" },
    };
  }
  const unsandboxed = leavesSandbox(input, toolPermissionContext);
  if (unsandboxed === "refused")
    return {
      behavior: "deny",
      message: UNSANDBOXED_REFUSED,
      decisionReason: { type: "tool", reason: UNSANDBOXED_REFUSED, check: "sandbox-required" },
    };
  // Outside the sandbox nothing contains the command: it is judged as if no sandbox were on.
  const policy = unsandboxed ? withoutSandbox(toolPermissionContext) : toolPermissionContext;
  let verdict: DetailedVerdict;
  try {
    verdict = analyzeBashCommandNow(input.command, { cwd, permissionContext: policy });
  } catch (error) {
    // A crash must not become a plain ask that bypass mode waves through.
    return {
      behavior: "ask",
      message: `The bash analyzer failed on this command (${errorMessage(error)}); a person must approve it.`,
      decisionReason: { type: "safetyCheck", reason: errorMessage(error), check: "analyzer-error" },
    };
  }
  if (unsandboxed === "asked" && verdict.behavior !== "deny") {
    const reason = "the call asks to run outside the OS sandbox (dangerouslyDisableSandbox)";
    return {
      behavior: "ask",
      message: `This command would run outside the OS sandbox (with protected paths writable), which always needs a person's approval (${verdict.reason}).`,
      decisionReason: { type: "safetyCheck", reason, check: "unsandboxed-command" },
    };
  }
  switch (verdict.behavior) {
    case "allow":
      return {
        behavior: "allow",
        updatedInput: input,
        message: `Bash: ${verdict.reason}`,
        decisionReason: { type: "tool", reason: verdict.reason, check: "bash-analyzer" },
      };
    case "deny":
      return {
        behavior: "deny",
        message: verdict.rule ? `${verdict.reason}. Do not try to reach it another way.` : verdict.reason,
        decisionReason: verdict.rule
          ? { type: "rule", rule: verdict.rule }
          : { type: "tool", reason: verdict.reason, ...(verdict.check ? { check: verdict.check } : {}) },
      };
    case "ask": {
      const reason = { reason: verdict.reason, ...(verdict.check ? { check: verdict.check } : {}) };
      if (verdict.rule)
        return {
          behavior: "ask",
          message: askMessage(verdict),
          decisionReason: { type: "rule", rule: verdict.rule },
        };
      return {
        behavior: "ask",
        message: askMessage(verdict),
        decisionReason: verdict.safety
          ? {
              type: "safetyCheck",
              ...reason,
              ...(verdict.allowRuleApproves ? { allowRuleApproves: true } : {}),
            }
          : { type: "tool", ...reason },
        ...(verdict.suggestions.length > 0 ? { suggestions: verdict.suggestions } : {}),
      };
    }
    case "passthrough":
      return {
        behavior: "passthrough",
        message: `Bash needs approval: ${verdict.reason}`,
        updatedInput: input,
        ...(verdict.suggestions.length > 0 ? { suggestions: verdict.suggestions } : {}),
      };
  }
}
