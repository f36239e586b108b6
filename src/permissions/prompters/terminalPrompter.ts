// The line-based terminal prompter (`keel tool` on a terminal): the call as it will run, then the
// choices of approvalOptions.ts by number or letter: yes, a narrow "don't ask again" that says where it
// is kept, or no (with an optional reason for the model).
import { openSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { ReadStream, WriteStream } from "node:tty";
import type { ApprovalAnswer, ApprovalRequest, Prompter } from "../../pipeline/services.ts";
import { viewText } from "../../tool/viewText.ts";
import { applyApproval, describeApproval, optionForWord } from "./approvalOptions.ts";
import { LineReader } from "./lineReader.ts";
import { askFormOnTerminal } from "./terminalForm.ts";

export interface TerminalPrompterOptions {
  input: Readable;
  output: Writable;
  /** Save "always" rules in the local settings file. Off for untrusted folders (their local rules are ignored). */
  persist?: boolean;
  /** Who made the calls: a person (`keel tool`, the default) or a model of your own agent loop. */
  caller?: "model" | "person";
}

export interface Terminal {
  input: Readable;
  output: Writable;
  close(): void;
}

/** The controlling terminal: stdin/stderr when they are TTYs, else /dev/tty; undefined when there is none. */
export function openTerminal(): Terminal | undefined {
  if (process.stdin.isTTY && process.stderr.isTTY)
    return { input: process.stdin, output: process.stderr, close: () => {} };
  try {
    const input = new ReadStream(openSync("/dev/tty", "r"));
    const output = new WriteStream(openSync("/dev/tty", "w"));
    return {
      input,
      output,
      close: () => {
        input.destroy();
        output.destroy();
      },
    };
  } catch {
    return undefined;
  }
}

function indent(text: string): string {
  return text.replace(/^/gm, "  ");
}

const MAX_TRIES = 3;
/** Lines of the preview shown: a long diff or a new file's head, then how many more lines there are. */
const PREVIEW_LINES = 40;

export interface TerminalPrompter extends Prompter {
  /** Stops reading the terminal, so it does not keep the process alive. */
  close(): void;
}

export function terminalPrompter(options: TerminalPrompterOptions): TerminalPrompter {
  const lines = new LineReader(options.input);
  const persist = options.persist ?? true;
  const write = (text: string) => options.output.write(text);
  // One question at a time: parallel calls wait their turn.
  let queue: Promise<unknown> = Promise.resolve();

  async function question(request: ApprovalRequest): Promise<ApprovalAnswer> {
    const prompt = await describeApproval(request, { persist, caller: options.caller ?? "person" });
    write(`\n${prompt.title}\n${indent(viewText(prompt.preview, PREVIEW_LINES))}\n`);
    write(`Approval needed: ${prompt.reason}\n`);
    for (const option of prompt.options) {
      const hint =
        option.effect.kind === "no"
          ? ` (a reason may follow: n use the test script instead${options.caller === "model" ? "; the model is told" : ""})`
          : "";
      write(`  ${option.key}  ${option.label}${hint}\n`);
      if (option.detail) write(`     ${option.detail}\n`);
    }
    const keys = prompt.options.map((option) => option.key).join("/");
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      write(`Allow? [${keys}] `);
      const line = await lines.next(request.signal);
      if (line === undefined) {
        write("\n");
        return {
          behavior: "deny",
          reason: request.signal.aborted ? "the call was cancelled" : "no answer (input closed)",
        };
      }
      const [word = "", ...rest] = line.trim().split(/\s+/);
      const option = optionForWord(prompt.options, word);
      if (option) {
        const applied = applyApproval(request, option, rest.join(" ") || undefined);
        for (const note of applied.notes) write(`${note}\n`);
        return applied.answer;
      }
      write(
        `Please answer ${prompt.options.map((option) => `${option.key} (${option.letter})`).join(", ")}.\n`,
      );
    }
    return { behavior: "deny", reason: "no clear answer" };
  }

  return {
    name: "terminal",
    close: () => lines.close(),
    ask(request) {
      const turn = queue.then(() => question(request));
      queue = turn.catch(() => undefined);
      return turn;
    },
    elicit(request) {
      const turn = queue.then(() => askFormOnTerminal(lines, write, request));
      queue = turn.catch(() => undefined);
      return turn;
    },
  };
}
