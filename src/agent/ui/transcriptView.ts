// The conversation as the terminal shows it: agent events become finished history items (printed
// once, in order) and a live area (the streaming text, the tools still running). The controller owns
// the rest of the screen (prompt, dialog, status); the Ink components only draw snapshots.
import type { ResultEvent } from "../../pipeline/runToolUse.ts";
import type { ToolUseBlock } from "../../tool/messages.ts";
import type { Tool, ToolView } from "../../tool/Tool.ts";
import type { AgentEvent } from "../events.ts";
import { viewToolProgress, viewToolResult, viewToolUse } from "../toolViews.ts";

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
export type NewItem = HistoryItem extends infer Item
  ? Item extends HistoryItem
    ? Omit<Item, "id">
    : never
  : never;

export interface TranscriptState {
  history: HistoryItem[];
  streamingText: string;
  tools: ToolEntry[];
}

export class TranscriptView {
  #state: TranscriptState = { history: [], streamingText: "", tools: [] };
  #nextId = 1;
  readonly #calls = new Map<string, ToolUseBlock>();
  readonly #tools: () => readonly Tool[];
  readonly #changed: () => void;

  /** `tools`: the session's tool pool, for the views; `changed`: called after every change. */
  constructor(tools: () => readonly Tool[], changed: () => void) {
    this.#tools = tools;
    this.#changed = changed;
  }

  get state(): TranscriptState {
    return this.#state;
  }

  #update(patch: Partial<TranscriptState>): void {
    this.#state = { ...this.#state, ...patch };
    this.#changed();
  }

  push(item: NewItem): void {
    this.#update({ history: [...this.#state.history, { ...item, id: this.#nextId++ } as HistoryItem] });
  }

  /** /clear: the live area goes (history already printed stays in the terminal's scrollback). */
  clearLive(): void {
    this.#update({ streamingText: "", tools: [] });
  }

  /** The end of a run: streamed text and every tool, finished or not, move to history. */
  finish(): void {
    this.#flushText();
    this.#flushTools(true);
  }

  event(event: AgentEvent): void {
    this.#event(event);
  }

  #flushText(): void {
    const text = this.#state.streamingText;
    if (text.trim()) this.push({ kind: "assistant", text: text.replace(/\s+$/, "") });
    if (text) this.#update({ streamingText: "" });
  }

  /** Finished tools move to history in call order; `all` moves the rest too (end of a run). */
  #flushTools(all: boolean): void {
    const tools = [...this.#state.tools];
    while (tools.length > 0 && (all || tools[0]!.status !== "running")) {
      const entry = tools.shift()!;
      this.push({
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
    const tools = this.#tools();
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
        this.push({
          kind: "notice",
          level: "warning",
          text: `${event.error.message} Retrying in ${(event.delayMs / 1000).toFixed(1)} s…`,
        });
        break;
      case "notice":
        this.push({ kind: "notice", level: event.level, text: event.text });
        break;
      case "compacted":
        this.push({
          kind: "notice",
          level: "info",
          text: `Conversation compacted: ${event.summarizedMessages} older messages summarized, ${event.keptMessages} kept.`,
        });
        break;
      case "end":
        this.#flushText();
        this.#flushTools(true);
        if (
          event.outcome.reason === "error" ||
          (event.outcome.reason !== "completed" && event.outcome.detail)
        )
          this.push({
            kind: "notice",
            level: event.outcome.reason === "error" ? "error" : "warning",
            text: event.outcome.detail ?? event.outcome.reason,
          });
        else if (event.outcome.reason === "interrupted")
          this.push({ kind: "notice", level: "warning", text: "Interrupted." });
        break;
      default:
        break;
    }
  }

  #toolDone(result: ResultEvent): void {
    const block = this.#calls.get(result.toolUseId);
    if (!this.#state.tools.some((tool) => tool.id === result.toolUseId)) {
      const view = block ? viewToolUse(this.#tools(), block) : { title: result.toolName };
      this.#update({
        tools: [
          ...this.#state.tools,
          { id: result.toolUseId, name: result.toolName, title: view.title, status: "running" },
        ],
      });
    }
    this.#setTool(result.toolUseId, {
      status: result.isError ? "error" : "done",
      result: viewToolResult(this.#tools(), block, result),
    });
    for (const message of result.userMessages) this.push({ kind: "notice", level: "info", text: message });
    this.#flushTools(false);
  }
}
