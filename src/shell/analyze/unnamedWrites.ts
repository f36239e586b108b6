// Writes the analysis cannot name: what a program not known to write only the files it is given
// writes (inline interpreter code, a build tool, a script), names only known at run time (curl's
// `%output{}`, archives, xargs fed from stdin), a line too complex to read. Where Keel confines Bash
// calls (context.sandbox.confinement), a mode or an allow rule may approve such a command, since it
// runs with the protected paths read-only. Where nothing can confine it, no mode may: in bypass,
// acceptEdits and auto mode the command asks as a safety check (hooks and the classifier cannot approve
// it either), and only a person or an allow rule naming it (the user's own statement of trust) does.
// In default mode it asks as it always did.
import type { Classification } from "./classification.ts";
import type { Finding } from "./pathScope.ts";

export const UNNAMED_WRITES = "unnamed-writes";

/** Findings that name the path they are about: the write is known, only where it lands matters. */
const NAMED_FINDINGS = new Set(["path-outside-working-dirs", "hard-link", "working-dir-removal"]);

export interface UnnamedWritesInput {
  /** Each part's classification; undefined when the line was too complex to read into parts. */
  kinds: ReadonlyArray<Pick<Classification, "kind" | "reason"> & { program: string }> | undefined;
  /** What the checks found (asks that do not hold in every mode among them). */
  findings: readonly Finding[];
  /** Why the line could not be read, when `kinds` is undefined. */
  unreadable?: string;
}

/** Why the analysis cannot name what this line writes, or undefined when every write is named. */
export function unnamedWritesReason(input: UnnamedWritesInput): string | undefined {
  if (input.kinds === undefined) return input.unreadable ?? "the command is too complex to read";
  const unknown = input.kinds.find((part) => part.kind === "other");
  if (unknown) return unknown.reason || `${unknown.program} is not known to write only the files it names`;
  return input.findings.find((finding) => !NAMED_FINDINGS.has(finding.check))?.reason;
}

/** The finding that asks in every mode (unless an allow rule names the command) where nothing confines it. */
export function unnamedWritesFinding(reason: string): Finding {
  return {
    check: UNNAMED_WRITES,
    reason: `${reason}; Keel cannot name the files it may write, and no sandbox can contain it here`,
    safety: true,
  };
}
