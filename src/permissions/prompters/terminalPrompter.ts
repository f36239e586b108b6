// The terminal prompter: yes (once), always (the suggested rule is written to .keel/settings.local.json
// and applies for the rest of the session), or no (with an optional reason for the model).
import { openSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { ReadStream, WriteStream } from "node:tty";
import type { ApprovalAnswer, ApprovalRequest, Prompter } from "../../pipeline/services.ts";
import { addRuleToSettingsFile } from "../../settings/addRule.ts";
import { localSettingsPath } from "../../settings/locations.ts";
import { addRules } from "../../tool/context.ts";
import { errorMessage } from "../../tool/errors.ts";
import { getRuleMatcher } from "../matchers.ts";
import { describeDecider, type RuleSuggestion } from "../types.ts";
import { LineReader } from "./lineReader.ts";
import { askFormOnTerminal } from "./terminalForm.ts";

export interface TerminalPrompterOptions {
  input: Readable;
  output: Writable;
  /** Save "always" rules in the local settings file. Off for untrusted folders (their local rules are ignored). */
  persist?: boolean;
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

/** The rule "always" would add: the tool's own allow suggestion, or the bare tool name when its rules take no specifier. */
export function alwaysRuleFor(request: ApprovalRequest): string | undefined {
  const suggested = request.suggestions.find((suggestion) => suggestion.behavior === "allow");
  if (suggested) return suggested.rule;
  const names = request.tool.permissionRuleNames ?? [request.tool.name];
  return names.some((name) => getRuleMatcher(name)) ? undefined : request.tool.name;
}

function describeInput(input: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(input);
  } catch {
    text = String(input);
  }
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

const MAX_TRIES = 3;

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
    const rule = alwaysRuleFor(request);
    const file = localSettingsPath(request.context.getAppState().toolPermissionContext.projectRoot);
    write(`\n${request.tool.userFacingName(request.input)} wants to run: ${describeInput(request.input)}\n`);
    write(`Approval needed: ${request.message} (${describeDecider(request.decision.decisionReason)})\n`);
    write("  y  yes, this once\n");
    if (rule)
      write(`  a  always: allow ${rule}${persist ? ` (saved in ${file})` : " (this session only)"}\n`);
    write("  n  no (add a reason after it to tell the model: n use the test script instead)\n");
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      write(rule ? "Allow? [y/a/n] " : "Allow? [y/n] ");
      const line = await lines.next(request.signal);
      if (line === undefined) {
        write("\n");
        return {
          behavior: "deny",
          reason: request.signal.aborted ? "the call was cancelled" : "no answer (input closed)",
        };
      }
      const [word = "", ...rest] = line.trim().split(/\s+/);
      const answer = word.toLowerCase();
      if (answer === "y" || answer === "yes") return { behavior: "allow", choice: "once" };
      if (rule && (answer === "a" || answer === "always")) return always(request, rule, file);
      if (answer === "n" || answer === "no") {
        const reason = rest.join(" ");
        return { behavior: "deny", ...(reason ? { reason } : {}) };
      }
      write(`Please answer ${rule ? "y, a or n" : "y or n"}.\n`);
    }
    return { behavior: "deny", reason: "no clear answer" };
  }

  function always(request: ApprovalRequest, rule: string, file: string): ApprovalAnswer {
    let destination: RuleSuggestion["destination"] = persist ? "local" : "session";
    if (persist) {
      try {
        addRuleToSettingsFile(file, "allow", rule);
        write(`Saved: allow ${rule} in ${file}\n`);
      } catch (error) {
        destination = "session";
        write(`Could not save the rule (${errorMessage(error)}); it applies for this session only.\n`);
      }
    }
    request.context.setAppState((state) => ({
      ...state,
      toolPermissionContext: addRules(state.toolPermissionContext, "allow", destination, [rule]),
    }));
    return { behavior: "allow", choice: "always", rule: { behavior: "allow", rule, destination } };
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
