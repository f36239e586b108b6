// Choosing a session's prompter. There is deliberately no "allow everything" prompter and no prompter
// object for "nobody": with none, the pipeline refuses every ask and says why (decidedBy: noPrompter).
import type { Prompter } from "../../pipeline/services.ts";
import { type CanUseToolCallback, callbackPrompter } from "./callbackPrompter.ts";
import { type Terminal, terminalPrompter } from "./terminalPrompter.ts";

export {
  type ApprovalOption,
  type ApprovalPrompt,
  alwaysRuleFor,
  applyApproval,
  describeApproval,
} from "./approvalOptions.ts";
export type {
  CallbackPrompterOptions,
  CanUseToolAnswer,
  CanUseToolCallback,
  CanUseToolOptions,
  ElicitationCallback,
} from "./callbackPrompter.ts";
export { callbackPrompter } from "./callbackPrompter.ts";
export {
  openTerminal,
  type Terminal,
  type TerminalPrompter,
  terminalPrompter,
} from "./terminalPrompter.ts";

export interface PrompterChoice {
  /** A library user's callback wins over everything else. */
  canUseTool?: CanUseToolCallback;
  /** An MCP server's elicitation prompter (built by the MCP layer). */
  elicitation?: Prompter;
  /** A terminal to ask on; omit in non-interactive runs. */
  terminal?: Terminal;
  /** Save "always" rules to the local settings file (false in untrusted folders). */
  persistRules?: boolean;
}

/** The prompter for a session, or undefined when nobody can answer (every ask is then refused). */
export function choosePrompter(choice: PrompterChoice): Prompter | undefined {
  if (choice.canUseTool) return callbackPrompter(choice.canUseTool);
  if (choice.elicitation) return choice.elicitation;
  if (choice.terminal) {
    return terminalPrompter({
      input: choice.terminal.input,
      output: choice.terminal.output,
      persist: choice.persistRules ?? true,
    });
  }
  return undefined;
}
