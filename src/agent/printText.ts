// Print mode's text output: the answer on stdout as it streams; refusals, warnings, retries and (with
// --verbose) tool activity on stderr, so a refused call is never passed over in silence.
import type { Writable } from "node:stream";
import { resultText } from "../tool/messages.ts";
import type { Tool } from "../tool/Tool.ts";
import { viewText } from "../tool/viewText.ts";
import type { AgentEvent } from "./events.ts";
import { formatCost, formatUsage, retryNotice } from "./format.ts";
import { isRefusal, type RunTally } from "./printRecords.ts";
import { viewToolResult, viewToolUse } from "./toolViews.ts";

export interface TextPrinterOptions {
  verbose: boolean;
  stdout: Writable;
  stderr: Writable;
  tools: () => readonly Tool[];
}

/** The first line of a refusal's reason, short enough for one line of stderr. */
function firstLine(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

export class TextPrinter {
  readonly #options: TextPrinterOptions;
  readonly #tally: RunTally;
  #atLineStart = true;
  #wroteText = false;

  constructor(options: TextPrinterOptions, tally: RunTally) {
    this.#options = options;
    this.#tally = tally;
  }

  #out(text: string): void {
    if (text === "") return;
    this.#options.stdout.write(text);
    this.#atLineStart = text.endsWith("\n");
  }

  #err(text: string): void {
    this.#options.stderr.write(text.endsWith("\n") ? text : `${text}\n`);
  }

  event(event: AgentEvent): void {
    switch (event.type) {
      case "request_start":
        if (this.#wroteText && !this.#atLineStart) this.#out("\n");
        break;
      case "stream":
        if (event.event.type === "text_delta") {
          this.#out(event.event.text);
          this.#wroteText = true;
        }
        if (event.event.type === "tool_use_complete" && this.#options.verbose)
          this.#err(`● ${viewToolUse(this.#options.tools(), event.event.block).title}`);
        break;
      case "tool_result": {
        const result = event.result;
        const call = this.#tally.call(result.toolUseId);
        if (isRefusal(result)) {
          const title = call ? viewToolUse(this.#options.tools(), call).title : result.toolName;
          this.#err(`keel: refused ${title}: ${firstLine(resultText(result.block.content))}`);
        } else if (this.#options.verbose) {
          const view = viewToolResult(this.#options.tools(), call, result);
          const text = viewText(view, 6).replace(/^/gm, "  ");
          this.#err(`  ⎿ ${result.isError ? "error: " : ""}${text.trimStart()}`);
        }
        break;
      }
      case "retry":
        this.#err(`keel: ${retryNotice(event.error.message, event.delayMs, event.attempt)}`);
        break;
      case "notice":
        if (event.level === "warning" || this.#options.verbose) this.#err(`keel: ${event.text}`);
        break;
      case "compacted":
        if (this.#options.verbose)
          this.#err(`keel: conversation compacted (${event.summarizedMessages} messages summarized)`);
        break;
      case "end": {
        if (!this.#atLineStart) this.#out("\n");
        const outcome = event.outcome;
        const refused = this.#tally.denials.length;
        if (refused > 0)
          this.#err(
            `keel: ${refused === 1 ? "1 tool call was" : `${refused} tool calls were`} refused (see above), ` +
              "so the task may be incomplete. Allow what it needs with --allowedTools, or run `keel` on a terminal to be asked.",
          );
        if (outcome.reason !== "completed")
          this.#err(`keel: stopped (${outcome.reason})${outcome.detail ? `: ${outcome.detail}` : ""}`);
        if (this.#options.verbose)
          this.#err(
            `keel: ${outcome.turns} turns, ${formatUsage(outcome.usage)}${outcome.costUsd === undefined ? "" : `, cost ${formatCost(outcome.costUsd)}`}`,
          );
        break;
      }
      default:
        break;
    }
  }
}
