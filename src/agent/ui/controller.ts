// What the terminal shows, kept apart from how it is drawn: the conversation (transcriptView.ts), the
// approval dialog, an MCP server's form (formInput.ts), the prompt line and the status line; keys come
// in here and become edits, answers and session actions. The Ink components only render snapshots of this state and forward keys.
import type { Key } from "ink";
import { MODE_DESCRIPTIONS } from "../../permissions/modes.ts";
import type { ApprovalPrompt } from "../../permissions/prompters/approvalOptions.ts";
import type { PermissionMode } from "../../permissions/types.ts";
import {
  confinementAvailability,
  unconfinedModeNotice,
} from "../../shell/sandbox/confinementAvailability.ts";
import { updatePermissionContext } from "../../tool/context.ts";
import type { AgentSession } from "../createAgent.ts";
import {
  describeCommand,
  type ExpandedCommand,
  expandSlashLine,
  listCustomCommands,
} from "../customCommands.ts";
import { errorMessageForUser, formatCost } from "../format.ts";
import { modelInfo } from "../models.ts";
import { AttentionNotifier } from "./attentionNotifier.ts";
import { dialogKey } from "./dialogKeys.ts";
import { FormInput, type FormState } from "./formInput.ts";
import type { EditorState } from "./prompt/editor.ts";
import { keyActions } from "./prompt/keys.ts";
import { type HistorySource, type LineOutcome, PromptLine } from "./prompt/promptLine.ts";
import { parseSlash, type SlashHost } from "./slashCommands.ts";
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

  constructor(
    session: AgentSession,
    prompter: UiPrompter,
    options: { history?: PromptHistoryStore; idleNoticeMs?: number } = {},
  ) {
    this.session = session;
    this.prompter = prompter;
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

  /** Resolves with the exit code once the person leaves. */
  exited(): Promise<number> {
    if (this.#exitCode !== undefined) return Promise.resolve(this.#exitCode);
    return new Promise((resolve) => this.#exitWaiters.push(resolve));
  }

  exit(code = 0): void {
    if (this.#exitCode !== undefined) return;
    this.#exitCode = code;
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
    const cost = formatCost(agent.modelInfo.pricing ? agent.costUsd : undefined);
    return `${agent.model} · ${mode} mode · ${agent.modelInfo.pricing ? cost : "cost unknown"} · /help`;
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
      const outcome = this.#line.apply(action);
      this.#update({ prompt: this.#line.state, hint: undefined });
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
    this.#update({ prompt: this.#line.state, hint: undefined });
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
      this.#push({ kind: "notice", level: "info", text: "Refused. Tell the model what to do instead." });
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
    // Entering a mode that approves Bash calls where nothing confines them: say what still asks, and the fix.
    const sandbox = context.getAppState().toolPermissionContext.sandbox;
    if (!sandbox.confinement && !sandbox.enabled) {
      const availability = confinementAvailability(process.env);
      const notice = availability.available ? undefined : unconfinedModeNotice(next, availability.reason);
      if (notice) this.#push({ kind: "notice", level: "warning", text: notice });
    }
  }

  /** Ctrl-C: stop the agent; else clear the prompt; at an empty prompt, twice in a row leaves. */
  ctrlC(): void {
    if (this.#state.running || this.prompter.current || this.prompter.currentForm) {
      this.prompter.cancelAll();
      this.session.agent.interrupt();
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
    this.#update({ prompt: this.#line.state });
    const slash = parseSlash(line);
    if (slash) return this.#slash(slash.name, slash.args);
    await this.submit(line);
  }

  // --- running ----------------------------------------------------------------------------------

  /** `shown`: what the history shows instead of the prompt (the `/command args` a person typed). */
  async submit(prompt: string, shown?: string): Promise<void> {
    this.#push({ kind: "user", text: shown ?? prompt });
    this.#update({ running: true, hint: undefined });
    this.#attention.promptStarted();
    try {
      for await (const event of this.session.agent.submit(prompt)) {
        this.#view.event(event);
        // Each answer costs: the status line shows the session's cost so far.
        if (event.type === "assistant") this.#update({ status: this.#statusLine() });
      }
    } catch (error) {
      this.#push({ kind: "notice", level: "error", text: errorMessageForUser(error) });
    } finally {
      this.#view.finish();
      this.#update({ running: false, hint: undefined, status: this.#statusLine() });
      this.#attention.promptDone();
    }
  }

  async #slash(name: string, args: string): Promise<void> {
    const parsed = parseSlash(`/${name} ${args}`);
    if (!parsed?.command) return this.#customCommand(name, args);
    const host: SlashHost = {
      agent: this.session.agent,
      print: (text) => this.#push({ kind: "notice", level: "info", text }),
      exit: () => this.exit(0),
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

  /** A project or user command: expanded (its `!` lines may ask, like any Bash call), then sent with its allowed-tools. */
  async #customCommand(name: string, args: string): Promise<void> {
    const line = `/${name}${args.trim() ? ` ${args.trim()}` : ""}`;
    this.#update({ running: true });
    let expanded: ExpandedCommand | undefined;
    try {
      expanded = await expandSlashLine(this.session.agent, line);
    } catch (error) {
      this.#push({ kind: "notice", level: "error", text: errorMessageForUser(error) });
      return;
    } finally {
      this.#update({ running: false });
    }
    if (!expanded) {
      this.#push({ kind: "notice", level: "warning", text: `Unknown command /${name}. Try /help.` });
      return;
    }
    const agent = this.session.agent;
    const before = { model: agent.model, info: agent.modelInfo };
    if (expanded.model) agent.setModel(expanded.model, modelInfo(expanded.model));
    agent.allowUntilPromptEnds(expanded.allowRules);
    try {
      await this.submit(expanded.prompt, line);
    } finally {
      if (expanded.model) agent.setModel(before.model, before.info);
    }
  }
}
