// Asking the person behind an MCP client through elicitation: a form with the call and a choice of
// allow once / allow for this session / deny. Declining, closing or failing to answer is a refusal; a form
// closed without an answer is recorded as nobody's answer, since no person may have seen it.
// A tool whose call is itself a set of questions (AskUserQuestion) gets those questions as the form.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { ApprovalAnswer, ApprovalRequest, Prompter } from "../pipeline/services.ts";
import { addRules } from "../tool/context.ts";
import { questionForm } from "./questionForm.ts";

/** A person may take a while; the SDK's default of 60 s is too short for a decision. */
const ELICITATION_TIMEOUT_MS = 10 * 60_000;
const INPUT_PREVIEW_CHARS = 800;
/**
 * A form closed without an answer: what is known. Clients with nobody at them (`claude -p`, some IDE
 * sessions) declare forms and close each one unshown, so it cannot be told apart from a person closing it.
 */
const CLOSED_UNANSWERED =
  "the MCP client closed the form without an answer (a client with nobody at it, such as `claude -p`, closes every form unshown, so no person may have seen the question)";

/** Form elicitation: declared as `form` (2025-11-25), or as an empty `elicitation` (older revisions). */
export function clientSupportsElicitation(server: Server): boolean {
  const elicitation = server.getClientCapabilities()?.elicitation;
  if (!elicitation) return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

/** Clients that declare `elicitation.form` speak 2025-11-25: titled choices and multi-selects. */
function clientTakesTitledChoices(server: Server): boolean {
  return server.getClientCapabilities()?.elicitation?.form !== undefined;
}

function inputPreview(input: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(input, null, 2) ?? String(input);
  } catch {
    text = String(input);
  }
  return text.length > INPUT_PREVIEW_CHARS ? `${text.slice(0, INPUT_PREVIEW_CHARS)}…` : text;
}

function userFacingName(request: ApprovalRequest): string {
  try {
    return request.tool.userFacingName(request.input);
  } catch {
    return request.tool.name;
  }
}

export interface ElicitationPrompterOptions {
  /** The tools/call request the question belongs to (HTTP sends it on that request's stream). */
  relatedRequestId?: RequestId;
}

export function elicitationPrompter(server: Server, options: ElicitationPrompterOptions = {}): Prompter {
  return {
    name: "mcp-elicitation",
    async ask(request: ApprovalRequest): Promise<ApprovalAnswer> {
      const relatedRequestId = options.relatedRequestId;
      const requestOptions = {
        signal: request.signal,
        timeout: ELICITATION_TIMEOUT_MS,
        ...(relatedRequestId === undefined ? {} : { relatedRequestId }),
      };
      const questions = request.tool.userQuestions;
      if (questions) {
        const form = questionForm(
          questions.questions(request.input as never),
          clientTakesTitledChoices(server),
        );
        const result = await server.elicitInput(
          { message: form.message, requestedSchema: form.requestedSchema },
          requestOptions,
        );
        if (result.action === "accept")
          return {
            behavior: "allow",
            choice: "once",
            updatedInput: questions.withAnswers(request.input as never, form.answers(result.content)),
          };
        return result.action === "decline"
          ? { behavior: "deny", reason: "the user declined to answer" }
          : { behavior: "deny", unanswered: CLOSED_UNANSWERED };
      }
      // The tool's own suggestion, else the tool itself (the label names the rule, so the person sees its reach).
      const always = request.suggestions.find((suggestion) => suggestion.behavior === "allow") ?? {
        behavior: "allow" as const,
        rule: request.tool.name,
        destination: "session" as const,
      };
      const choices = ["allow_once", "allow_always", "deny"];
      const labels = ["Allow once", `Allow ${always.rule} for this session`, "Deny"];
      const message =
        `Keel asks to run ${userFacingName(request)} (${request.tool.name}).\n` +
        `Why approval is needed: ${request.message}\n\nInput:\n${inputPreview(request.input)}`;
      const result = await server.elicitInput(
        {
          message,
          requestedSchema: {
            type: "object",
            properties: {
              decision: { type: "string", title: "Decision", enum: choices, enumNames: labels },
              reason: { type: "string", title: "Reason (optional, told to the model when you deny)" },
            },
            required: ["decision"],
          },
        },
        requestOptions,
      );
      const decision = result.action === "accept" ? result.content?.decision : undefined;
      const reason =
        typeof result.content?.reason === "string" && result.content.reason
          ? result.content.reason
          : undefined;
      if (decision === "allow_once") return { behavior: "allow", choice: "once" };
      if (decision === "allow_always") {
        // "For this session": a session rule, so the next call of this kind is not asked again.
        request.context.setAppState((state) => ({
          ...state,
          toolPermissionContext: addRules(state.toolPermissionContext, "allow", "session", [always.rule]),
        }));
        return { behavior: "allow", choice: "always", rule: always };
      }
      if (result.action === "decline") return { behavior: "deny", reason: reason ?? "the user declined" };
      if (result.action === "cancel") return { behavior: "deny", unanswered: CLOSED_UNANSWERED };
      return { behavior: "deny", ...(reason ? { reason } : {}) };
    },
  };
}
