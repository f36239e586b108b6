// The prompter for library users: their `canUseTool` callback answers each approval request. The shape
// follows the agent SDKs people know (tool name, input, options; allow with updatedInput, or deny).
import type {
  ApprovalAnswer,
  ApprovalRequest,
  ElicitationAnswer,
  ElicitationRequest,
  Prompter,
} from "../../pipeline/services.ts";
import { addRules } from "../../tool/context.ts";
import { errorMessage } from "../../tool/errors.ts";
import type { Tool } from "../../tool/Tool.ts";
import { parseRuleValue } from "../rules.ts";
import type { DecisionReason, RuleSuggestion } from "../types.ts";

export interface CanUseToolOptions {
  signal: AbortSignal;
  /** Rules that would stop this question from being asked again. */
  suggestions: RuleSuggestion[];
  toolUseId: string;
  /** Why approval is needed. */
  message: string;
  decisionReason: DecisionReason;
  tool: Tool;
}

export type CanUseToolAnswer =
  | {
      behavior: "allow";
      updatedInput?: unknown;
      /** Rules to add for the rest of the session ("always"). */
      updatedPermissions?: RuleSuggestion[];
    }
  | { behavior: "deny"; message?: string };

export type CanUseToolCallback = (
  toolName: string,
  input: unknown,
  options: CanUseToolOptions,
) => CanUseToolAnswer | Promise<CanUseToolAnswer>;

function isAnswer(value: unknown): value is CanUseToolAnswer {
  if (value === null || typeof value !== "object") return false;
  const behavior = (value as { behavior?: unknown }).behavior;
  return behavior === "allow" || behavior === "deny";
}

/** Rules the callback asked to keep, well-formed allow rules only; added to the session's policy. */
function keepRules(request: ApprovalRequest, rules: readonly RuleSuggestion[]): RuleSuggestion | undefined {
  const valid = rules.filter((rule) => {
    if (rule.behavior !== "allow") return false;
    try {
      parseRuleValue(rule.rule);
      return true;
    } catch {
      return false;
    }
  });
  if (valid.length === 0) return undefined;
  request.context.setAppState((state) => ({
    ...state,
    toolPermissionContext: addRules(
      state.toolPermissionContext,
      "allow",
      "session",
      valid.map((rule) => rule.rule),
    ),
  }));
  return valid[0];
}

/** A library user's answer to a form an MCP server asks for (elicitation); anything else declines. */
export type ElicitationCallback = (
  request: ElicitationRequest,
) => ElicitationAnswer | Promise<ElicitationAnswer>;

export interface CallbackPrompterOptions {
  name?: string;
  /** Forms from MCP servers; without it they are declined. */
  onElicitation?: ElicitationCallback;
}

export function callbackPrompter(
  canUseTool: CanUseToolCallback,
  nameOrOptions: string | CallbackPrompterOptions = {},
): Prompter {
  const options = typeof nameOrOptions === "string" ? { name: nameOrOptions } : nameOrOptions;
  const name = options.name ?? "canUseTool";
  const onElicitation = options.onElicitation;
  return {
    name,
    ...(onElicitation
      ? {
          async elicit(request: ElicitationRequest): Promise<ElicitationAnswer> {
            try {
              const answer = await onElicitation(request);
              return answer?.action === "accept" || answer?.action === "cancel"
                ? answer
                : { action: "decline" };
            } catch {
              return { action: "decline" };
            }
          },
        }
      : {}),
    async ask(request: ApprovalRequest): Promise<ApprovalAnswer> {
      let answer: unknown;
      try {
        answer = await canUseTool(request.tool.name, request.input, {
          signal: request.signal,
          suggestions: request.suggestions,
          toolUseId: request.toolUseId,
          message: request.message,
          decisionReason: request.decision.decisionReason,
          tool: request.tool,
        });
      } catch (error) {
        return { behavior: "deny", reason: `the canUseTool callback failed: ${errorMessage(error)}` };
      }
      // Anything but a clear allow is a no.
      if (!isAnswer(answer))
        return { behavior: "deny", reason: "the canUseTool callback gave no allow/deny answer" };
      if (answer.behavior === "deny")
        return { behavior: "deny", ...(answer.message ? { reason: answer.message } : {}) };
      const kept = answer.updatedPermissions?.length
        ? keepRules(request, answer.updatedPermissions)
        : undefined;
      return {
        behavior: "allow",
        choice: kept ? "always" : "once",
        ...(answer.updatedInput === undefined ? {} : { updatedInput: answer.updatedInput }),
        ...(kept ? { rule: kept } : {}),
      };
    },
  };
}
