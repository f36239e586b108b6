// The prompter the terminal UI drives: each approval request waits in a queue until the person answers
// yes (once), always (the suggested rule, for the session and saved in the local settings file when the
// folder is trusted) or no. A cancelled call (Ctrl-C) drops its question; nothing is ever allowed by
// default.
import { alwaysRuleFor } from "../../permissions/prompters/terminalPrompter.ts";
import type { RuleSuggestion } from "../../permissions/types.ts";
import type { ApprovalAnswer, ApprovalRequest, Prompter } from "../../pipeline/services.ts";
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

export interface UiPrompterOptions {
  /** Save "always" rules in .keel/settings.local.json (only for trusted folders). */
  persist: () => boolean;
}

export class UiPrompter implements Prompter {
  readonly name = "terminal UI";
  readonly #queue: PendingApproval[] = [];
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

  /** The person's answer to the question on screen. */
  answer(choice: DialogChoice, reason?: string): void {
    const pending = this.current;
    if (!pending) return;
    if (choice === "no") pending.resolve({ behavior: "deny", ...(reason ? { reason } : {}) });
    else if (choice === "yes" || !pending.alwaysRule) pending.resolve({ behavior: "allow", choice: "once" });
    else pending.resolve(this.#always(pending.request, pending.alwaysRule));
  }

  /** Ctrl-C: every open question is answered no. */
  cancelAll(): void {
    for (const pending of [...this.#queue])
      pending.resolve({ behavior: "deny", reason: "interrupted by the user" });
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
