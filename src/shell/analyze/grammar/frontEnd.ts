// The one Bash front end: text checks -> parse -> syntax checks -> extract commands. The analyzer,
// the read-only test and the allow-rule matcher all read a command through it, so a check added here
// holds for each of them.

import { deepFreeze } from "../../../tool/context.ts";
import { LruMap } from "../../../tool/lruMap.ts";
import { deepScan } from "../deepCommands.ts";
import { SYNTAX_CHECKS, TEXT_CHECKS } from "../security/index.ts";
import { extractCommands } from "./extract.ts";
import type { ExtractedCommand, Extraction, Problem } from "./extractedCommand.ts";
import { withBashTree } from "./parse.ts";
import { indexTree } from "./tree.ts";
import { treeAssignments } from "./treeAssignments.ts";

export type { Problem };

/** Syntax checks whose finding holds in every mode: what they find hides commands from every other check. */
const SAFETY_SYNTAX = new Set(
  SYNTAX_CHECKS.filter((check) => check.severity === "safety").map((check) => check.id),
);

/** Whether a problem found by the front end asks even in bypass mode. */
export function isSafetyProblem(problem: Problem): boolean {
  return SAFETY_SYNTAX.has(problem.check);
}

export interface BashReading {
  /** Text and syntax checks that fired and constructs the extractor could not represent, in that order. */
  problems: Problem[];
  /** The plain commands and the operators between them (partial when there are problems). */
  extraction: Extraction;
  /**
   * Commands the plain analysis does not reach, for the safety scan: those nested in code strings
   * (bash -c, eval...) or, when the command has problems, every command found at any depth.
   */
  hidden: ExtractedCommand[];
  /** When there are problems: variables the line sets outside plain commands (loops, `${x:=}`, arithmetic). */
  assignedElsewhere: string[];
}

export interface ReadOptions {
  /**
   * Stop at the first problem, for callers that only need "understood or not": whether there are
   * problems and the first of them, and the commands when there are none. `hidden` and
   * `assignedElsewhere` may be empty, and so may the commands when there are problems. A full reading of
   * the same text, when there is one, answers it: it agrees on all of that.
   */
  firstProblemOnly?: boolean;
}

const EMPTY: Extraction = { commands: [], operators: [], problems: [] };

/**
 * Readings of recent commands: one call's permission check, read-only question, rule matching and
 * audit all read the same command, and a command is read once for all of them. A reading depends only
 * on the text, so the text is the key; readings are frozen, so no reader can change another's.
 */
const READINGS = new LruMap<string, BashReading>(256);

/** Reads a command through every stage (once: see READINGS). The parser must be initialised. */
export function readBash(command: string, options: ReadOptions = {}): BashReading {
  const full = `0${command}`;
  const key = options.firstProblemOnly ? `1${command}` : full;
  // The audit's question after a decision (guard/savedPrompt.ts) read the whole command again.
  const known = READINGS.get(key) ?? (key === full ? undefined : READINGS.get(full));
  if (known) return known;
  const reading = deepFreeze(readBashOnce(command, options)) as BashReading;
  READINGS.set(key, reading);
  return reading;
}

function readBashOnce(command: string, options: ReadOptions): BashReading {
  const firstOnly = options.firstProblemOnly ?? false;
  const problems: Problem[] = [];
  for (const check of TEXT_CHECKS) {
    const reason = check.run(command);
    if (reason === undefined) continue;
    problems.push({ check: check.id, reason });
    if (firstOnly) return { problems, extraction: EMPTY, hidden: [], assignedElsewhere: [] };
  }
  return withBashTree(command, (root) => {
    const tree = indexTree(root, command);
    for (const check of SYNTAX_CHECKS) {
      const reason = check.run(tree);
      if (reason === undefined) continue;
      problems.push({ check: check.id, reason });
      if (firstOnly) return { problems, extraction: EMPTY, hidden: [], assignedElsewhere: [] };
    }
    const extraction = extractCommands(root, command);
    problems.push(...extraction.problems);
    if (firstOnly) return { problems, extraction, hidden: [], assignedElsewhere: [] };
    // Plain commands get the full analysis; what it cannot reach gets the safety scan.
    const hidden =
      problems.length === 0
        ? deepScan(command, { commands: extraction.commands }).nested
        : deepScan(command, { root }).commands;
    return {
      problems,
      extraction,
      hidden,
      assignedElsewhere: problems.length > 0 ? treeAssignments(root) : [],
    };
  });
}

/** The plain commands of a command the analysis fully understands, or undefined. */
export function understoodCommands(command: string): ExtractedCommand[] | undefined {
  const reading = readBash(command, { firstProblemOnly: true });
  if (reading.problems.length > 0 || reading.extraction.commands.length === 0) return undefined;
  return reading.extraction.commands;
}
