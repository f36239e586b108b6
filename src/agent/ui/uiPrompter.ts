// The prompter the terminal UI drives: each approval request waits in a queue, with the question of
// approvalOptions.ts (the call as it will run and the choices), until the person picks a choice. A
// cancelled call (Ctrl-C) drops its question; nothing is ever allowed by default. Forms from MCP
// servers (elicitation) wait in a queue of their own, behind any approval question, and are filled in
// field by field on the prompt line; Esc declines one, a cancelled call or Ctrl-C cancels it.
import {
  type ApprovalOption,
  type ApprovalPrompt,
  applyApproval,
  describeApproval,
  optionForWord,
} from "../../permissions/prompters/approvalOptions.ts";
import { FormFiller } from "../../permissions/prompters/formFields.ts";
import type {
  ApprovalAnswer,
  ApprovalRequest,
  ElicitationAnswer,
  ElicitationRequest,
  Prompter,
} from "../../pipeline/services.ts";

export interface PendingApproval {
  request: ApprovalRequest;
  prompt: ApprovalPrompt;
  resolve(answer: ApprovalAnswer): void;
}

export interface PendingForm {
  request: ElicitationRequest;
  form: FormFiller;
  /** Why the last answer did not fit the field, shown until the next one. */
  problem?: string;
  resolve(answer: ElicitationAnswer): void;
}

export interface UiPrompterOptions {
  /** "Don't ask again" may be saved in .keel/settings.local.json (only for trusted folders). */
  persist: () => boolean;
}

const CANCELLED: ApprovalAnswer = { behavior: "deny", reason: "the call was cancelled" };

export class UiPrompter implements Prompter {
  readonly name = "terminal UI";
  readonly #queue: PendingApproval[] = [];
  readonly #forms: PendingForm[] = [];
  readonly #listeners = new Set<() => void>();
  readonly #options: UiPrompterOptions;
  #describing: Promise<unknown> = Promise.resolve();
  /** Messages for the person about what a choice changed (a saved rule, the mode). */
  readonly notes: string[] = [];

  constructor(options: UiPrompterOptions) {
    this.#options = options;
  }

  /** The question on screen now, if any. */
  get current(): PendingApproval | undefined {
    return this.#queue[0];
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }

  async ask(request: ApprovalRequest): Promise<ApprovalAnswer> {
    if (request.signal.aborted) return CANCELLED;
    // Questions are described one after another, so they queue in the order the calls asked.
    const described = this.#describing.then(() =>
      describeApproval(request, {
        persist: this.#options.persist(),
        caller: request.context.options.typedByPerson ? "person" : "model",
        modeKey: true,
      }),
    );
    this.#describing = described.catch(() => undefined);
    const prompt = await described;
    if (request.signal.aborted) return CANCELLED;
    return new Promise((resolve) => {
      const pending: PendingApproval = {
        request,
        prompt,
        resolve: (answer) => {
          request.signal.removeEventListener("abort", onAbort);
          const index = this.#queue.indexOf(pending);
          if (index >= 0) this.#queue.splice(index, 1);
          resolve(answer);
          this.#changed();
        },
      };
      const onAbort = () => pending.resolve(CANCELLED);
      request.signal.addEventListener("abort", onAbort, { once: true });
      this.#queue.push(pending);
      this.#changed();
    });
  }

  /** The person's choice for the question on screen: an option, or its number or letter. */
  answer(choice: ApprovalOption | string, reason?: string): boolean {
    const pending = this.current;
    if (!pending) return false;
    const option = typeof choice === "string" ? optionForWord(pending.prompt.options, choice) : choice;
    if (!option || !pending.prompt.options.includes(option)) return false;
    const applied = applyApproval(pending.request, option, reason);
    this.notes.push(...applied.notes);
    pending.resolve(applied.answer);
    return true;
  }

  /** The form on screen now: the oldest one, once no approval question is waiting. */
  get currentForm(): PendingForm | undefined {
    return this.current ? undefined : this.#forms[0];
  }

  elicit(request: ElicitationRequest): Promise<ElicitationAnswer> {
    if (request.signal.aborted) return Promise.resolve({ action: "cancel" });
    return new Promise((resolve) => {
      const pending: PendingForm = {
        request,
        form: new FormFiller(request),
        resolve: (answer) => {
          request.signal.removeEventListener("abort", onAbort);
          const index = this.#forms.indexOf(pending);
          if (index >= 0) this.#forms.splice(index, 1);
          resolve(answer);
          this.#changed();
        },
      };
      const onAbort = () => pending.resolve({ action: "cancel" });
      request.signal.addEventListener("abort", onAbort, { once: true });
      this.#forms.push(pending);
      this.#changed();
    });
  }

  /** The typed answer for the current field of the form on screen; the last field's sends the form. */
  answerField(line: string): void {
    const pending = this.currentForm;
    if (!pending) return;
    const { problem } = pending.form.give(line);
    if (problem) pending.problem = problem;
    else delete pending.problem;
    if (!pending.form.current) pending.resolve(pending.form.answer());
    else this.#changed();
  }

  /** Esc on a form: the person does not want to answer it. */
  declineForm(): void {
    this.currentForm?.resolve({ action: "decline" });
  }

  /** Ctrl-C: every open question is answered no, every open form cancelled. */
  cancelAll(): void {
    for (const pending of [...this.#queue])
      pending.resolve({ behavior: "deny", reason: "interrupted by the user" });
    for (const pending of [...this.#forms]) pending.resolve({ action: "cancel" });
  }
}
