// The prompter the terminal UI drives: each approval request waits in a queue until the person answers
// yes (once), always (the suggested rule, for the session and saved in the local settings file when the
// folder is trusted) or no. A cancelled call (Ctrl-C) drops its question; nothing is ever allowed by
// default. Forms from MCP servers (elicitation) wait in the same way and are filled in field by field
// on the input line; Esc declines one.

import { FormFiller } from "../../permissions/prompters/formFields.ts";
import { alwaysRuleFor } from "../../permissions/prompters/terminalPrompter.ts";
import type { RuleSuggestion } from "../../permissions/types.ts";
import type {
  ApprovalAnswer,
  ApprovalRequest,
  ElicitationAnswer,
  ElicitationRequest,
  Prompter,
} from "../../pipeline/services.ts";
import { addRuleToSettingsFile } from "../../settings/addRule.ts";
import { localSettingsPath } from "../../settings/locations.ts";
import { addRules } from "../../tool/context.ts";
import { errorMessage } from "../../tool/errors.ts";

export type DialogChoice = "yes" | "always" | "no";

export interface PendingApproval {
  request: ApprovalRequest;
  /** The rule "always" would add; undefined when the tool offers none. */
  alwaysRule?: string;
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
  /** Save "always" rules in .keel/settings.local.json (only for trusted folders). */
  persist: () => boolean;
}

export class UiPrompter implements Prompter {
  readonly name = "terminal UI";
  readonly #queue: PendingApproval[] = [];
  readonly #forms: PendingForm[] = [];
  readonly #listeners = new Set<() => void>();
  readonly #options: UiPrompterOptions;
  /** Messages for the person about saved rules. */
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

  ask(request: ApprovalRequest): Promise<ApprovalAnswer> {
    if (request.signal.aborted)
      return Promise.resolve({ behavior: "deny", reason: "the call was cancelled" });
    return new Promise((resolve) => {
      const rule = alwaysRuleFor(request);
      const pending: PendingApproval = {
        request,
        ...(rule ? { alwaysRule: rule } : {}),
        resolve: (answer) => {
          request.signal.removeEventListener("abort", onAbort);
          const index = this.#queue.indexOf(pending);
          if (index >= 0) this.#queue.splice(index, 1);
          resolve(answer);
          this.#changed();
        },
      };
      const onAbort = () => pending.resolve({ behavior: "deny", reason: "the call was cancelled" });
      request.signal.addEventListener("abort", onAbort, { once: true });
      this.#queue.push(pending);
      this.#changed();
    });
  }

  /** The form on screen now (after any approval question). */
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

  /** The typed answer for the current field of the form on screen; the last one sends the form. */
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

  /** The person's answer to the question on screen. */
  answer(choice: DialogChoice, reason?: string): void {
    const pending = this.current;
    if (!pending) return;
    if (choice === "no") pending.resolve({ behavior: "deny", ...(reason ? { reason } : {}) });
    else if (choice === "yes" || !pending.alwaysRule) pending.resolve({ behavior: "allow", choice: "once" });
    else pending.resolve(this.#always(pending.request, pending.alwaysRule));
  }

  /** Ctrl-C: every open question is answered no, every open form cancelled. */
  cancelAll(): void {
    for (const pending of [...this.#queue])
      pending.resolve({ behavior: "deny", reason: "interrupted by the user" });
    for (const pending of [...this.#forms]) pending.resolve({ action: "cancel" });
  }

  #always(request: ApprovalRequest, rule: string): ApprovalAnswer {
    let destination: RuleSuggestion["destination"] = "session";
    if (this.#options.persist()) {
      const file = localSettingsPath(request.context.getAppState().toolPermissionContext.projectRoot);
      try {
        addRuleToSettingsFile(file, "allow", rule);
        destination = "local";
        this.notes.push(`Saved: allow ${rule} in ${file}`);
      } catch (error) {
        this.notes.push(
          `Could not save the rule (${errorMessage(error)}); it applies for this session only.`,
        );
      }
    }
    request.context.setAppState((state) => ({
      ...state,
      toolPermissionContext: addRules(state.toolPermissionContext, "allow", destination, [rule]),
    }));
    return { behavior: "allow", choice: "always", rule: { behavior: "allow", rule, destination } };
  }
}
