// Notification hooks from the terminal UI, as Claude Code sends them: when an approval question or an
// MCP server's form comes on screen (permission_prompt, elicitation_dialog), and when the prompt line
// has waited a minute for the person after an answer (idle_prompt). Hooks run in the background: a
// slow hook never holds up the dialog.
import type { AttentionNotice, LoopHooks } from "../loopHooks.ts";
import type { UiPrompter } from "./uiPrompter.ts";

/** How long the prompt waits after an answer before idle_prompt (Claude Code's default: 60 s). */
export const IDLE_NOTICE_MS = 60_000;

export interface AttentionNotifierOptions {
  idleMs?: number;
}

export class AttentionNotifier {
  readonly #hooks: LoopHooks;
  readonly #idleMs: number;
  /** Questions and forms already announced. */
  readonly #announced = new WeakSet<object>();
  readonly #stopped = new AbortController();
  #idleTimer: NodeJS.Timeout | undefined;

  constructor(hooks: LoopHooks, prompter: UiPrompter, options: AttentionNotifierOptions = {}) {
    this.#hooks = hooks;
    this.#idleMs = options.idleMs ?? IDLE_NOTICE_MS;
    prompter.onChange(() => this.#announceOnScreen(prompter));
  }

  /** The agent started on a prompt: the person is not being waited for. */
  promptStarted(): void {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
  }

  /** The agent is done and the prompt line waits: after a while, say so. */
  promptDone(): void {
    this.promptStarted();
    if (this.#stopped.signal.aborted) return;
    this.#idleTimer = setTimeout(
      () => this.#send({ type: "idle_prompt", message: "Keel is waiting for your input" }),
      this.#idleMs,
    );
    this.#idleTimer.unref();
  }

  /** The UI closes: no more notices; hooks still running are stopped. */
  stop(): void {
    this.promptStarted();
    this.#stopped.abort();
  }

  #announceOnScreen(prompter: UiPrompter): void {
    const approval = prompter.current;
    if (approval && !this.#announced.has(approval)) {
      this.#announced.add(approval);
      this.#send({
        type: "permission_prompt",
        message: `Keel needs your permission to use ${approval.request.tool.name}`,
        title: "Permission needed",
      });
    }
    const form = prompter.currentForm;
    if (form && !this.#announced.has(form)) {
      this.#announced.add(form);
      this.#send({
        type: "elicitation_dialog",
        message: `The MCP server ${form.request.serverName} asks for input: ${form.request.message}`,
        title: "Input needed",
      });
    }
  }

  #send(notice: AttentionNotice): void {
    if (this.#stopped.signal.aborted) return;
    this.#hooks.notification(notice, this.#stopped.signal).catch(() => undefined);
  }
}
