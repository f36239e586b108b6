// What the terminal shows, kept apart from how it is drawn: agent events become finished history items
// (printed once) and a live area (the streaming text, running tools, the approval dialog). The Ink
// components only render snapshots of this state and forward keys.
import type { ResultEvent } from "../../pipeline/runToolUse.ts";
import type { ToolUseBlock } from "../../tool/messages.ts";
import type { ToolView } from "../../tool/Tool.ts";
import type { AgentSession } from "../createAgent.ts";
import type { AgentEvent } from "../events.ts";
import { errorMessageForUser, formatCost } from "../format.ts";
import { viewToolProgress, viewToolResult, viewToolUse } from "../toolViews.ts";
import { parseSlash, type SlashHost } from "./slashCommands.ts";
import type { DialogChoice, UiPrompter } from "./uiPrompter.ts";

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
  title: string;
  message: string;
  alwaysRule?: string;
  /** A form from an MCP server: the field being asked, answered on the input line. */
  form?: {
    field: string;
    description?: string;
    choices: string[];
    hint: string;
    problem?: string;
  };
}

export interface UiState {
  history: HistoryItem[];
  streamingText: string;
  tools: ToolEntry[];
  running: boolean;
  dialog?: DialogState;
  input: string;
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

  constructor(session: AgentSession, prompter: UiPrompter) {
    this.session = session;
    this.prompter = prompter;
    this.#state = { history: [], streamingText: "", tools: [], running: false, input: "", status: "" };
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

  #formDialog(): DialogState | undefined {
    const pending = this.prompter.currentForm;
    const field = pending?.form.current;
    if (!pending || !field) return undefined;
    const fallback = field.default === undefined ? "" : ` (empty: ${String(field.default)})`;
    return {
      title: `MCP server "${pending.request.serverName}" asks`,
      message: pending.request.message,
      form: {
        field: `${field.label}${field.required ? "" : " (optional)"}`,
        ...(field.description ? { description: field.description } : {}),
        choices: (field.choices ?? []).map((choice, index) => `${index + 1}  ${choice.title}`),
        hint: `${field.multiple ? "numbers, separated by commas" : field.choices ? "a number" : "your answer"}, then Enter${fallback}; Esc declines`,
        ...(pending.problem ? { problem: pending.problem } : {}),
      },
    };
  }

  #dialog(): DialogState | undefined {
    const pending = this.prompter.current;
    if (!pending) return this.#formDialog();
    const request = pending.request;
    const block: ToolUseBlock = {
      type: "tool_use",
      id: request.toolUseId,
      name: request.tool.name,
      input: request.input,
    };
    return {
      title: viewToolUse(this.session.agent.pool.all, block).title,
      message: request.message,
      ...(pending.alwaysRule ? { alwaysRule: pending.alwaysRule } : {}),
    };
  }

  // --- keys -------------------------------------------------------------------------------------

  typed(text: string): void {
    this.#update({ input: this.#state.input + text, hint: undefined });
  }

  backspace(): void {
    this.#update({ input: this.#state.input.slice(0, -1) });
  }

  /** Enter or Esc while a form is on screen: the typed line answers its field, Esc declines it. */
  answerForm(decline = false): void {
    if (decline) this.prompter.declineForm();
    else this.prompter.answerField(this.#state.input);
    this.#update({ input: "" });
  }

  answer(choice: DialogChoice): void {
    this.prompter.answer(choice);
    for (const note of this.prompter.notes.splice(0))
      this.#push({ kind: "notice", level: "info", text: note });
  }

  /** Ctrl-C: stop the agent; at an idle, empty prompt, twice in a row leaves. */
  ctrlC(): void {
    if (this.#state.running || this.prompter.current) {
      this.prompter.cancelAll();
      this.session.agent.interrupt();
      this.#update({ hint: "Interrupting…" });
      return;
    }
    if (this.#state.input) {
      this.#update({ input: "" });
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

  async enter(): Promise<void> {
    const line = this.#state.input.trim();
    if (!line || this.#state.running) return;
    this.#update({ input: "" });
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
