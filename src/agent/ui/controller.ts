// What the terminal shows, kept apart from how it is drawn: the conversation (transcriptView.ts), the
// approval dialog, an MCP server's form (formInput.ts), the prompt line and the status line; keys come
// in here and become edits, answers and session actions. The Ink components only render snapshots of this state and forward keys.
import type { Key } from "ink";
import { autoModeRuleNotice } from "../../permissions/autoModeRules.ts";
import { MODE_DESCRIPTIONS } from "../../permissions/modes.ts";
import type { ApprovalPrompt } from "../../permissions/prompters/approvalOptions.ts";
import type { PermissionMode } from "../../permissions/types.ts";
import {
  canConfine,
  confinementAvailability,
  unconfinedModeNotice,
} from "../../shell/sandbox/confinementAvailability.ts";
import { updatePermissionContext } from "../../tool/context.ts";
import type { AgentSession } from "../createAgent.ts";
import { describeCommand, listCustomCommands } from "../customCommands.ts";
import { errorMessageForUser, formatCost } from "../format.ts";
import { AttentionNotifier } from "./attentionNotifier.ts";
import { dialogKey } from "./dialogKeys.ts";
import { completeMention, mentionAtCursor, pathSuggestions } from "./fileMentions.ts";
import { FormInput, type FormState } from "./formInput.ts";
import { type LineHost, runCustomCommand, runShellLine, sendWithMentions } from "./lineRunners.ts";
import { type PickerState, pickerKey } from "./picker.ts";
import type { EditorState } from "./prompt/editor.ts";
import { keyActions } from "./prompt/keys.ts";
import { type HistorySource, type LineOutcome, PromptLine } from "./prompt/promptLine.ts";
import { type PickItem, parseSlash, type SlashHost } from "./slashCommands.ts";
import type { SessionFacts } from "./statusCommands.ts";
import { type NewItem, type TranscriptState, TranscriptView } from "./transcriptView.ts";
import type { UiPrompter } from "./uiPrompter.ts";

export type { HistoryItem, ToolEntry } from "./transcriptView.ts";

export interface DialogState {
  prompt: ApprovalPrompt;
  /** The highlighted choice (Up/Down move it, Enter picks it). */
  selected: number;
}

/** Shift+Tab walks these; any other mode steps to the first. */
export const MODE_CYCLE: readonly PermissionMode[] = ["default", "acceptEdits", "plan"];

/** Where the sent prompts are kept (the history file), and read back for Up/Down. */
export interface PromptHistoryStore extends HistorySource {
  add(prompt: string): void;
}

export interface UiState extends TranscriptState {
  running: boolean;
  dialog?: DialogState;
  /** A list to pick from (/resume), answered with the arrows and Enter. */
  picker?: PickerState;
  /** Paths that complete the `@mention` being typed (Tab takes the first). */
  suggestions?: readonly string[];
  /** A form an MCP server asks for, answered on the prompt line (after any approval question). */
  form?: FormState;
  prompt: EditorState;
  status: string;
  hint?: string;
}

export class InteractiveController {
  readonly session: AgentSession;
  readonly prompter: UiPrompter;
  #state: UiState;
  #listeners = new Set<() => void>();
  readonly #view: TranscriptView;
  #exitCode: number | undefined;
  #exitWaiters: Array<(code: number) => void> = [];
  #lastCtrlC = 0;
  readonly #line: PromptLine;
  readonly #form: FormInput;
  readonly #promptHistory: PromptHistoryStore | undefined;
  readonly #attention: AttentionNotifier;
  readonly #stopWatchingInput: () => void;
  readonly #env: NodeJS.ProcessEnv;
  readonly #home: string;
  /** Said once the run that caused it has printed its tool lines (a refusal follows the refused call). */
  readonly #afterRun: string[] = [];
  #resolvePick: ((index: number | undefined) => void) | undefined;
  /** Stops the `!command` running now. */
  #shellAbort: AbortController | undefined;
  /** A saved session to switch to when this one ends (/resume). */
  #resumeTo: string | undefined;

  constructor(
    session: AgentSession,
    prompter: UiPrompter,
    options: {
      history?: PromptHistoryStore;
      idleNoticeMs?: number;
      env?: NodeJS.ProcessEnv;
      home?: string;
    } = {},
  ) {
    this.session = session;
    this.prompter = prompter;
    this.#env = options.env ?? process.env;
    this.#home = options.home ?? (this.#env.HOME || "/");
    this.#attention = new AttentionNotifier(session.hooks, prompter, {
      ...(options.idleNoticeMs === undefined ? {} : { idleMs: options.idleNoticeMs }),
    });
    this.#promptHistory = options.history;
    this.#line = new PromptLine(options.history ?? { entries: [] });
    this.#form = new FormInput(prompter);
    this.#view = new TranscriptView(
      () => session.agent.pool.all,
      () => this.#update(this.#view.state),
    );
    this.#state = {
      ...this.#view.state,
      running: false,
      prompt: this.#line.state,
      status: "",
    };
    this.#state.status = this.#statusLine();
    prompter.onChange(() => this.#update({ dialog: this.#dialog(), form: this.#form.state() }));
    for (const text of session.notices) this.#push({ kind: "notice", level: "info", text });
    this.#stopWatchingInput = session.agent.onPendingInput(() => setImmediate(() => this.#runPendingInput()));
    if (session.resumed)
      this.#push({
        kind: "notice",
        level: "info",
        text: `Resumed session ${session.agent.sessionId} (${session.agent.messages.length} messages).`,
      });
  }

  get state(): UiState {
    return this.#state;
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The saved session /resume chose, once this one has ended for it. */
  get resumeTo(): string | undefined {
    return this.#resumeTo;
  }

  /** Resolves with the exit code once the person leaves (or /resume ends this session: 0). */
  exited(): Promise<number> {
    if (this.#exitCode !== undefined) return Promise.resolve(this.#exitCode);
    return new Promise((resolve) => this.#exitWaiters.push(resolve));
  }

  exit(code = 0): void {
    if (this.#exitCode !== undefined) return;
    this.#exitCode = code;
    this.#stopWatchingInput();
    this.#closePicker(undefined);
    this.#attention.stop();
    this.prompter.cancelAll();
    this.session.agent.interrupt();
    for (const waiter of this.#exitWaiters) waiter(code);
  }

  /** A line for the person in the history (warnings about the UI itself, like an unwritable history file). */
  notify(level: "info" | "warning", text: string): void {
    this.#push({ kind: "notice", level, text });
  }

  #update(patch: Partial<UiState>): void {
    this.#state = { ...this.#state, ...patch };
    for (const listener of this.#listeners) listener();
  }

  #push(item: NewItem): void {
    this.#view.push(item);
  }

  #statusLine(): string {
    const agent = this.session.agent;
    const mode = agent.context.getAppState().toolPermissionContext.mode;
    // A model without a published price shows no cost: never an estimate borrowed from another model.
    const cost = agent.modelInfo.pricing ? ` · ${formatCost(agent.costUsd)}` : "";
    return `${agent.model} · ${mode} mode${cost} · /help`;
  }

  #dialog(): DialogState | undefined {
    const pending = this.prompter.current;
    if (!pending) return undefined;
    // The same question keeps its highlighted choice; a new one starts on "Yes".
    const same = this.#state.dialog?.prompt === pending.prompt;
    return { prompt: pending.prompt, selected: same ? (this.#state.dialog?.selected ?? 0) : 0 };
  }

  // --- keys -------------------------------------------------------------------------------------

  /** A key from the terminal: to the approval dialog when one is open, to a form, else to the prompt line. */
  key(input: string, key: Key): void {
    const picker = this.#state.picker;
    if (picker && !this.#state.dialog) {
      const result = pickerKey(input, key, picker);
      if (result?.type === "select") this.#update({ picker: { ...picker, selected: result.index } });
      else if (result) this.#closePicker(result.type === "pick" ? result.index : undefined);
      return;
    }
    if (key.ctrl && input === "c") {
      this.ctrlC();
      return;
    }
    const dialog = this.#state.dialog;
    if (dialog) {
      const result = dialogKey(input, key, dialog);
      if (result?.type === "select") this.#update({ dialog: { ...dialog, selected: result.index } });
      else if (result?.type === "answer") this.answer(result.choice);
      return;
    }
    for (const action of keyActions(input, key)) {
      // Keys typed together (Enter included) may answer a form's field and go on to the next one.
      if (this.#state.form) {
        if (this.#form.apply(action) === "interrupt") this.ctrlC();
        this.#update({ form: this.#form.state() });
        continue;
      }
      if (action.type === "complete") {
        this.#complete();
        continue;
      }
      const outcome = this.#line.apply(action);
      this.#update({ prompt: this.#line.state, hint: undefined, suggestions: this.#suggestions() });
      if (outcome) this.#outcome(outcome);
    }
  }

  /** Bracketed paste: the text, line breaks included, goes into the prompt as one piece. */
  paste(text: string): void {
    if (this.#state.dialog) return;
    if (this.#state.form) {
      this.#form.paste(text);
      this.#update({ form: this.#form.state() });
      return;
    }
    this.#line.paste(text);
    this.#update({ prompt: this.#line.state, hint: undefined, suggestions: this.#suggestions() });
  }

  /** The paths that complete the `@mention` at the cursor, while one is being typed. */
  #suggestions(): readonly string[] | undefined {
    const mention = mentionAtCursor(this.#line.state);
    if (!mention) return undefined;
    const found = pathSuggestions(mention.partial, this.session.agent.context.getAppState().cwd, this.#home);
    return found.length > 0 ? found : undefined;
  }

  /** Tab: completes the `@mention` at the cursor with the first path that fits. */
  #complete(): void {
    const completed = completeMention(this.#line.state, this.#state.suggestions ?? []);
    if (!completed) return;
    this.#line.set(completed);
    this.#update({ prompt: this.#line.state, suggestions: this.#suggestions() });
  }

  /** Shows a list to pick from; resolves with the index picked, or undefined (Esc). */
  pick(title: string, items: readonly PickItem[]): Promise<number | undefined> {
    this.#closePicker(undefined);
    return new Promise((resolve) => {
      this.#resolvePick = resolve;
      this.#update({ picker: { title, items, selected: 0 } });
    });
  }

  #closePicker(index: number | undefined): void {
    const resolve = this.#resolvePick;
    this.#resolvePick = undefined;
    if (this.#state.picker) this.#update({ picker: undefined });
    resolve?.(index);
  }

  #outcome(outcome: LineOutcome): void {
    switch (outcome.type) {
      case "submit":
        void this.enter();
        return;
      case "interrupt":
        this.ctrlC();
        return;
      case "eof":
        if (!this.#state.running) this.exit(0);
        return;
      case "cycleMode":
        this.cycleMode();
        return;
      case "escape":
        if (this.#state.running) this.ctrlC();
        return;
    }
  }

  /** Answers the question on screen with a choice (its number or letter); unknown choices are ignored. */
  answer(choice: string): void {
    const option = this.#state.dialog?.prompt.options.find(
      (candidate) => candidate.key === choice || candidate.letter === choice.toLowerCase(),
    );
    if (!this.prompter.answer(choice)) return;
    for (const note of this.prompter.notes.splice(0))
      this.#push({ kind: "notice", level: "info", text: note });
    this.#update({ status: this.#statusLine() });
    // "No, and tell the model what to do instead": the turn stops here, and the prompt is the person's.
    if (option?.effect.kind === "no") {
      this.prompter.cancelAll();
      this.session.agent.interrupt();
      this.#shellAbort?.abort(new Error("Refused by the user"));
      // Printed after the refused call's own line, once the run has put it in the history.
      this.#afterRun.push(
        this.#shellAbort
          ? "Refused: the command was not run."
          : "Refused. Tell the model what to do instead.",
      );
    }
  }

  /** Shift+Tab: default → acceptEdits → plan → default, shown in the status line. */
  cycleMode(): void {
    const context = this.session.agent.context;
    const current = context.getAppState().toolPermissionContext.mode;
    const index = MODE_CYCLE.indexOf(current);
    const next = MODE_CYCLE[(index + 1) % MODE_CYCLE.length] ?? "default";
    context.setAppState((state) => ({
      ...state,
      toolPermissionContext: updatePermissionContext(state.toolPermissionContext, { mode: next }),
    }));
    this.#update({
      status: this.#statusLine(),
      hint: `${next} mode: ${MODE_DESCRIPTIONS[next]} (Shift+Tab to change)`,
    });
    const notice = autoModeRuleNotice(current, next, context.getAppState().toolPermissionContext);
    if (notice) this.#push({ kind: "notice", level: "info", text: notice });
    // Entering a mode that approves Bash calls where nothing confines them: say what still asks, and the fix.
    const policy = context.getAppState().toolPermissionContext;
    if (!policy.sandbox.enabled && !canConfine(policy)) {
      const availability = confinementAvailability(policy.caller.env);
      const notice = availability.available ? undefined : unconfinedModeNotice(next, availability.reason);
      if (notice) this.#push({ kind: "notice", level: "warning", text: notice });
    }
  }

  /** Ctrl-C: stop the agent; else clear the prompt; at an empty prompt, twice in a row leaves. */
  ctrlC(): void {
    if (this.#state.running || this.prompter.current || this.prompter.currentForm) {
      this.prompter.cancelAll();
      this.session.agent.interrupt();
      this.#shellAbort?.abort(new Error("Interrupted by the user"));
      this.#update({ hint: "Interrupting…" });
      return;
    }
    if (this.#line.text) {
      this.#line.clear();
      this.#update({ prompt: this.#line.state });
      return;
    }
    const now = Date.now();
    if (now - this.#lastCtrlC < 2000) {
      this.exit(0);
      return;
    }
    this.#lastCtrlC = now;
    this.#update({ hint: "Press Ctrl-C again to exit." });
  }

  /** Enter: sends the prompt (or runs the slash command); while the agent works, the text waits. */
  async enter(): Promise<void> {
    const line = this.#line.text.trim();
    if (!line) return;
    if (this.#state.running) {
      this.#update({
        hint: "The agent is still working: press Enter again once it is done, or Ctrl-C to stop it.",
      });
      return;
    }
    this.#promptHistory?.add(this.#line.text);
    this.#line.clear();
    this.#update({ prompt: this.#line.state, suggestions: undefined });
    if (line.startsWith("!")) return this.#shell(line.slice(1).trim());
    const slash = parseSlash(line);
    if (slash) return this.#slash(slash.name, slash.args);
    await sendWithMentions(this.#lineHost(), line);
  }

  /** `!command`: its own abort signal, so Ctrl-C or a "No" stops it (not the session). */
  async #shell(command: string): Promise<void> {
    if (!command) {
      this.#update({ hint: "Type a command after !, for example: !git status" });
      return;
    }
    this.#shellAbort = new AbortController();
    try {
      await runShellLine(this.#lineHost(), command, this.#shellAbort.signal);
    } finally {
      this.#shellAbort = undefined;
    }
  }

  #lineHost(): LineHost {
    return {
      session: this.session,
      home: this.#home,
      push: (item) => this.#push(item),
      setRunning: (running) => {
        if (!running) this.#flushAfterRun();
        this.#update({ running, ...(running ? {} : { hint: undefined, status: this.#statusLine() }) });
      },
      submit: (prompt, shown, options) => this.submit(prompt, shown, options),
    };
  }

  #flushAfterRun(): void {
    for (const text of this.#afterRun.splice(0)) this.#push({ kind: "notice", level: "info", text });
  }

  // --- running ----------------------------------------------------------------------------------

  /** `shown`: what the history shows instead of the prompt (the `/command args` a person typed). */
  async submit(prompt: string, shown?: string, options: { shownAlready?: boolean } = {}): Promise<void> {
    if (!options.shownAlready) this.#push({ kind: "user", text: shown ?? prompt });
    await this.#drive(() => this.session.agent.submit(prompt));
  }

  /**
   * Input that came while the agent was idle (another session's message, a background agent's report, a
   * scheduled prompt) runs once nothing else does; the person sees where it came from.
   */
  #runPendingInput(): void {
    if (this.#state.running || this.#exitCode !== undefined || this.prompter.current) return;
    const pending = this.session.agent.takePendingInput();
    if (!pending) return;
    if (pending.kind === "prompt") {
      this.#push({ kind: "notice", level: "info", text: pending.label });
      void this.submit(pending.prompt);
      return;
    }
    this.#push({
      kind: "notice",
      level: "info",
      text: "A message arrived (another session, or a background agent's report).",
    });
    void this.#drive(() => this.session.agent.continueWithMessages());
  }

  async #drive(start: () => ReturnType<AgentSession["agent"]["submit"]>): Promise<void> {
    this.#update({ running: true, hint: undefined });
    this.#attention.promptStarted();
    try {
      for await (const event of start()) {
        this.#view.event(event);
        // Each answer costs: the status line shows the session's cost so far.
        if (event.type === "assistant") this.#update({ status: this.#statusLine() });
      }
    } catch (error) {
      this.#push({ kind: "notice", level: "error", text: errorMessageForUser(error) });
    } finally {
      this.#view.finish();
      this.#flushAfterRun();
      this.#update({ running: false, hint: undefined, status: this.#statusLine() });
      this.#attention.promptDone();
      setImmediate(() => this.#runPendingInput());
    }
  }

  async #slash(name: string, args: string): Promise<void> {
    const parsed = parseSlash(`/${name} ${args}`);
    if (!parsed?.command) return runCustomCommand(this.#lineHost(), name, args);
    const host: SlashHost = {
      agent: this.session.agent,
      facts: {
        config: this.session.config,
        settingsFiles: this.session.settingsFiles ?? [],
        trusted: this.session.trusted,
      } satisfies SessionFacts,
      env: this.#env,
      print: (text) => this.#push({ kind: "notice", level: "info", text }),
      exit: () => this.exit(0),
      submit: (prompt, shown) => this.submit(prompt, shown),
      pick: (title, items) => this.pick(title, items),
      resume: (sessionId) => {
        this.#resumeTo = sessionId;
        this.exit(0);
      },
      clearScreen: () => this.#view.clearLive(),
      customCommands: async () => (await listCustomCommands(this.session.agent)).map(describeCommand),
      compact: async (instructions) => {
        this.#update({ running: true });
        try {
          const run = this.session.agent.compact({
            trigger: "manual",
            ...(instructions ? { instructions } : {}),
          });
          for await (const event of run) this.#view.event(event);
        } finally {
          this.#update({ running: false });
        }
      },
    };
    await parsed.command.run(host, parsed.args);
    this.#update({ status: this.#statusLine() });
  }
}
