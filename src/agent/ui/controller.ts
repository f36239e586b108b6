// What the terminal shows, kept apart from how it is drawn: agent events become finished history items
// (printed once) and a live area (the streaming text, running tools, the approval dialog). The Ink
// components only render snapshots of this state and forward keys.
import type { Key } from "ink";
import { MODE_DESCRIPTIONS } from "../../permissions/modes.ts";
import type { ApprovalPrompt } from "../../permissions/prompters/approvalOptions.ts";
import type { PermissionMode } from "../../permissions/types.ts";
import type { ResultEvent } from "../../pipeline/runToolUse.ts";
import { updatePermissionContext } from "../../tool/context.ts";
import type { ToolUseBlock } from "../../tool/messages.ts";
import type { ToolView } from "../../tool/Tool.ts";
import type { AgentSession } from "../createAgent.ts";
import type { AgentEvent } from "../events.ts";
import { errorMessageForUser, formatCost } from "../format.ts";
import { viewToolProgress, viewToolResult, viewToolUse } from "../toolViews.ts";
import { dialogKey } from "./dialogKeys.ts";
import type { EditorState } from "./prompt/editor.ts";
import { keyActions } from "./prompt/keys.ts";
import { type HistorySource, type LineOutcome, PromptLine } from "./prompt/promptLine.ts";
import { parseSlash, type SlashHost } from "./slashCommands.ts";
import type { UiPrompter } from "./uiPrompter.ts";

export interface ToolEntry {
  id: string;
  name: string;
  title: string;
  status: "running" | "done" | "error";
  useView?: ToolView;
  progress?: ToolView;
  result?: ToolView;
}

export type HistoryItem =
  | { id: number; kind: "user"; text: string }
  | { id: number; kind: "assistant"; text: string }
  | { id: number; kind: "tool"; entry: ToolEntry }
  | { id: number; kind: "notice"; level: "info" | "warning" | "error"; text: string };

/** A history item before it gets its id (Omit over a union would merge the members). */
type NewItem = HistoryItem extends infer Item ? (Item extends HistoryItem ? Omit<Item, "id"> : never) : never;

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

export interface UiState {
  history: HistoryItem[];
  streamingText: string;
  tools: ToolEntry[];
  running: boolean;
  dialog?: DialogState;
  prompt: EditorState;
  status: string;
  hint?: string;
}

export class InteractiveController {
  readonly session: AgentSession;
  readonly prompter: UiPrompter;
  #state: UiState;
  #nextId = 1;
  #listeners = new Set<() => void>();
  #calls = new Map<string, ToolUseBlock>();
  #exitCode: number | undefined;
  #exitWaiters: Array<(code: number) => void> = [];
  #lastCtrlC = 0;
  readonly #line: PromptLine;
  readonly #promptHistory: PromptHistoryStore | undefined;

  constructor(session: AgentSession, prompter: UiPrompter, options: { history?: PromptHistoryStore } = {}) {
    this.session = session;
    this.prompter = prompter;
    this.#promptHistory = options.history;
    this.#line = new PromptLine(options.history ?? { entries: [] });
    this.#state = {
      history: [],
      streamingText: "",
      tools: [],
      running: false,
      prompt: this.#line.state,
      status: "",
    };
    this.#state.status = this.#statusLine();
    prompter.onChange(() => this.#update({ dialog: this.#dialog() }));
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
    this.#update({ history: [...this.#state.history, { ...item, id: this.#nextId++ } as HistoryItem] });
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

  /** A key from the terminal: to the approval dialog when one is open, else to the prompt line. */
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
      const outcome = this.#line.apply(action);
      this.#update({ prompt: this.#line.state, hint: undefined });
      if (outcome) this.#outcome(outcome);
    }
  }

  /** Bracketed paste: the text, line breaks included, goes into the prompt as one piece. */
  paste(text: string): void {
    if (this.#state.dialog) return;
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
    if (!this.prompter.answer(choice)) return;
    for (const note of this.prompter.notes.splice(0))
      this.#push({ kind: "notice", level: "info", text: note });
    this.#update({ status: this.#statusLine() });
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
  }

  /** Ctrl-C: stop the agent; else clear the prompt; at an empty prompt, twice in a row leaves. */
  ctrlC(): void {
    if (this.#state.running || this.prompter.current) {
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
        hint: "The agent is still working: Enter sends this once it is done (Ctrl-C stops it).",
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

  async submit(prompt: string): Promise<void> {
    this.#push({ kind: "user", text: prompt });
    this.#update({ running: true, hint: undefined });
    try {
      for await (const event of this.session.agent.submit(prompt)) this.#event(event);
    } catch (error) {
      this.#push({ kind: "notice", level: "error", text: errorMessageForUser(error) });
    } finally {
      this.#flushText();
      this.#flushTools(true);
      this.#update({ running: false, hint: undefined, status: this.#statusLine() });
    }
  }

  async #slash(name: string, args: string): Promise<void> {
    const parsed = parseSlash(`/${name} ${args}`);
    if (!parsed?.command) {
      this.#push({ kind: "notice", level: "warning", text: `Unknown command /${name}. Try /help.` });
      return;
    }
    const host: SlashHost = {
      agent: this.session.agent,
      print: (text) => this.#push({ kind: "notice", level: "info", text }),
      exit: () => this.exit(0),
      clearScreen: () => this.#update({ streamingText: "", tools: [] }),
      compact: async (instructions) => {
        this.#update({ running: true });
        try {
          const run = this.session.agent.compact({
            trigger: "manual",
            ...(instructions ? { instructions } : {}),
          });
          for await (const event of run) this.#event(event);
        } finally {
          this.#update({ running: false });
        }
      },
    };
    await parsed.command.run(host, parsed.args);
    this.#update({ status: this.#statusLine() });
  }

  #flushText(): void {
    const text = this.#state.streamingText;
    if (text.trim()) this.#push({ kind: "assistant", text: text.replace(/\s+$/, "") });
    if (text) this.#update({ streamingText: "" });
  }

  /** Finished tools move to history in call order; `all` moves the rest too (end of a run). */
  #flushTools(all: boolean): void {
    const tools = [...this.#state.tools];
    while (tools.length > 0 && (all || tools[0]!.status !== "running")) {
      const entry = tools.shift()!;
      this.#push({
        kind: "tool",
        entry:
          entry.status === "running"
            ? { ...entry, status: "error", result: { kind: "text", text: "(stopped)" } }
            : entry,
      });
    }
    this.#update({ tools });
  }

  #setTool(id: string, patch: Partial<ToolEntry>): void {
    this.#update({
      tools: this.#state.tools.map((entry) => (entry.id === id ? { ...entry, ...patch } : entry)),
    });
  }

  #event(event: AgentEvent): void {
    const tools = this.session.agent.pool.all;
    switch (event.type) {
      case "stream": {
        const stream = event.event;
        if (stream.type === "text_delta")
          this.#update({ streamingText: this.#state.streamingText + stream.text });
        else if (stream.type === "tool_use_complete") {
          this.#flushText();
          this.#calls.set(stream.block.id, stream.block);
          const view = viewToolUse(tools, stream.block);
          this.#update({
            tools: [
              ...this.#state.tools,
              {
                id: stream.block.id,
                name: stream.block.name,
                title: view.title,
                status: "running",
                ...(view.view ? { useView: view.view } : {}),
              },
            ],
          });
        }
        break;
      }
      case "tool_progress": {
        const entry = this.#state.tools.find((tool) => tool.id === event.toolUseId);
        if (entry && event.source === "tool")
          this.#setTool(entry.id, { progress: viewToolProgress(tools, entry.name, event.data) });
        break;
      }
      case "tool_result":
        this.#toolDone(event.result);
        break;
      case "retry":
        // The abandoned response's text and calls are dropped; the retry streams them again.
        this.#update({
          streamingText: "",
          tools: this.#state.tools.filter((tool) => tool.status !== "running"),
        });
        this.#push({
          kind: "notice",
          level: "warning",
          text: `${event.error.message} Retrying in ${(event.delayMs / 1000).toFixed(1)} s…`,
        });
        break;
      case "notice":
        this.#push({ kind: "notice", level: event.level, text: event.text });
        break;
      case "compacted":
        this.#push({
          kind: "notice",
          level: "info",
          text: `Conversation compacted: ${event.summarizedMessages} older messages summarized, ${event.keptMessages} kept.`,
        });
        break;
      case "assistant":
        this.#update({ status: this.#statusLine() });
        break;
      case "end":
        this.#flushText();
        this.#flushTools(true);
        if (
          event.outcome.reason === "error" ||
          (event.outcome.reason !== "completed" && event.outcome.detail)
        )
          this.#push({
            kind: "notice",
            level: event.outcome.reason === "error" ? "error" : "warning",
            text: event.outcome.detail ?? event.outcome.reason,
          });
        else if (event.outcome.reason === "interrupted")
          this.#push({ kind: "notice", level: "warning", text: "Interrupted." });
        break;
      default:
        break;
    }
  }

  #toolDone(result: ResultEvent): void {
    const block = this.#calls.get(result.toolUseId);
    if (!this.#state.tools.some((tool) => tool.id === result.toolUseId)) {
      const view = block ? viewToolUse(this.session.agent.pool.all, block) : { title: result.toolName };
      this.#update({
        tools: [
          ...this.#state.tools,
          { id: result.toolUseId, name: result.toolName, title: view.title, status: "running" },
        ],
      });
    }
    this.#setTool(result.toolUseId, {
      status: result.isError ? "error" : "done",
      result: viewToolResult(this.session.agent.pool.all, block, result),
    });
    for (const message of result.userMessages) this.#push({ kind: "notice", level: "info", text: message });
    this.#flushTools(false);
  }
}
