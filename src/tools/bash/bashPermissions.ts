// The Bash tool's own permission check: the analyzer's verdict as a PermissionResult.
import type { PermissionResult } from "../../permissions/types.ts";
import { analyzeBashCommandNow, type DetailedVerdict } from "../../shell/analyze.ts";
import { initBashParser } from "../../shell/parse.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { errorMessage } from "../../tool/errors.ts";

type BashPermissionInput = { command: string };

function askMessage(verdict: DetailedVerdict): string {
  const why = `${verdict.reason}${verdict.check ? ` [${verdict.check}]` : ""}`;
  return verdict.safety
    ? `This command needs a person's approval in every mode: ${why}.`
    : `This command needs approval: ${why}. Prefer simpler commands (plain arguments, no substitutions) inside the working directories.`;
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
  let verdict: DetailedVerdict;
  try {
    verdict = analyzeBashCommandNow(input.command, { cwd, permissionContext: toolPermissionContext });
  } catch (error) {
    // A crash must not become a plain ask that bypass mode waves through.
    return {
      behavior: "ask",
      message: `The bash analyzer failed on this command (${errorMessage(error)}); a person must approve it.`,
      decisionReason: { type: "safetyCheck", reason: errorMessage(error), check: "analyzer-error" },
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
        message: verdict.reason,
        decisionReason: {
          type: "tool",
          reason: verdict.reason,
          ...(verdict.check ? { check: verdict.check } : {}),
        },
      };
    case "ask": {
      const reason = { reason: verdict.reason, ...(verdict.check ? { check: verdict.check } : {}) };
      return {
        behavior: "ask",
        message: askMessage(verdict),
        decisionReason: verdict.safety ? { type: "safetyCheck", ...reason } : { type: "tool", ...reason },
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
