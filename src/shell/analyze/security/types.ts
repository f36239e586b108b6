// What a security check is: an id, what it catches, where it looks, and the table of inputs that
// must and must not trigger it. The tables are the tests (security/checks.test.ts runs them all).
import type { CommandView } from "../commandView.ts";
import type { SyntaxIndex } from "../grammar/tree.ts";

export interface CheckExamples {
  /** Whole bash commands on which this check must fire. */
  trigger: readonly string[];
  /** Whole bash commands on which this check must stay quiet. */
  pass: readonly string[];
}

interface CheckBase {
  id: string;
  /** One line: what the check catches and why it matters. */
  description: string;
  examples: CheckExamples;
  /** "safety" findings ask in every mode (bypass included); "ask" findings ask unless bypassed. */
  severity?: "ask" | "safety";
}

/** Looks at the raw command string before parsing. */
export interface TextCheck extends CheckBase {
  stage: "text";
  run(command: string): string | undefined;
}

/** Looks at the syntax tree. */
export interface SyntaxCheck extends CheckBase {
  stage: "syntax";
  run(tree: SyntaxIndex): string | undefined;
}

/** Looks at one command after its wrappers are removed. */
export interface CommandCheck extends CheckBase {
  stage: "command";
  run(command: CommandView): string | undefined;
}

export type SecurityCheck = TextCheck | SyntaxCheck | CommandCheck;

export type { SyntaxIndex } from "../grammar/tree.ts";
