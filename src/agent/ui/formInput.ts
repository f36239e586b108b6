// A form an MCP server asks the person to fill in (elicitation), as the terminal UI shows it: the
// server's message and the field being asked in a box, the answer typed on the prompt line with the
// same editing keys as a prompt (its own line, so a prompt typed while the agent works stays as it is).
// Enter answers the field, Esc declines the form; the prompter keeps the form and checks each answer.
import type { ElicitationRequest } from "../../pipeline/services.ts";
import type { EditorState } from "./prompt/editor.ts";
import type { PromptAction } from "./prompt/keys.ts";
import { PromptLine } from "./prompt/promptLine.ts";
import type { UiPrompter } from "./uiPrompter.ts";

export interface FormState {
  title: string;
  message: string;
  /** The field asked now ("Seats (optional)"); undefined for a form without fields (a confirmation). */
  field?: string;
  description?: string;
  /** Numbered choices ("1  Free"). */
  choices: string[];
  /** How to answer: what to type, what Enter with nothing typed does, Esc. */
  hint: string;
  /** Why the last answer did not fit. */
  problem?: string;
  /** "field 2 of 3" when the form has more than one. */
  step?: string;
  editor: EditorState;
}

/** What the key meant beyond editing the answer: Ctrl-C stops the agent (the controller does that). */
export type FormKeyOutcome = "interrupt" | undefined;

export class FormInput {
  readonly #prompter: UiPrompter;
  /** No history: Up/Down must not put old prompts into a form. */
  readonly #line = new PromptLine({ entries: [] });
  /** The form the typed text belongs to: another form starts with an empty line. */
  #request: ElicitationRequest | undefined;

  constructor(prompter: UiPrompter) {
    this.#prompter = prompter;
  }

  /** The form on screen (none while an approval question is waiting before it). */
  state(): FormState | undefined {
    const pending = this.#prompter.currentForm;
    if (!pending) return undefined;
    if (pending.request !== this.#request) {
      this.#request = pending.request;
      this.#line.clear();
    }
    const { form, request } = pending;
    const field = form.current;
    const base = {
      title: `MCP server "${request.serverName}" asks`,
      message: request.message,
      editor: this.#line.state,
      ...(pending.problem ? { problem: pending.problem } : {}),
    };
    if (!field) return { ...base, choices: [], hint: "Enter accepts, Esc declines" };
    const position = form.fields.indexOf(field);
    const empty =
      field.default !== undefined
        ? `, nothing for ${String(field.default)}`
        : field.required
          ? ""
          : ", nothing to skip";
    const what = field.multiple ? "numbers, separated by commas" : field.choices ? "a number" : "your answer";
    return {
      ...base,
      field: `${field.label}${field.required ? "" : " (optional)"}`,
      ...(field.description ? { description: field.description } : {}),
      choices: (field.choices ?? []).map((choice, index) => `${index + 1}  ${choice.title}`),
      hint: `Type ${what}, then Enter${empty}; Esc declines the form`,
      ...(form.fields.length > 1 ? { step: `field ${position + 1} of ${form.fields.length}` } : {}),
    };
  }

  /** One prompt-line action while the form is on screen. */
  apply(action: PromptAction): FormKeyOutcome {
    const outcome = this.#line.apply(action);
    switch (outcome?.type) {
      case "submit":
        this.#line.clear();
        this.#prompter.answerField(outcome.text);
        return undefined;
      case "escape":
        this.#line.clear();
        this.#prompter.declineForm();
        return undefined;
      case "interrupt":
        return "interrupt";
      default:
        // Ctrl-D at an empty line and Shift+Tab mean nothing here: the form waits for an answer.
        return undefined;
    }
  }

  /** Pasted text goes into the answer as it is. */
  paste(text: string): void {
    this.#line.paste(text);
  }
}
