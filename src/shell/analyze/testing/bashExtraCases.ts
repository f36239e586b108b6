// Bash permission cases in the format of shared/security/bash-cases.jsonl: the public shared cases
// (a copy beside this file, so a fresh clone tests them), our own adversarial cases
// (extra-bash-cases.jsonl) and a loader for any such file.
import { existsSync, readFileSync } from "node:fs";

export type Verdict = "allow" | "ask" | "deny";

export interface BashCase {
  id: string;
  category?: string;
  command: string;
  context: {
    allow_rules?: string[];
    deny_rules?: string[];
    ask_rules?: string[];
    cwd_root?: string;
    mode?: string;
    shell?: string;
  };
  expected: Verdict;
  also_acceptable?: Verdict[];
  why?: string;
  needs_fs?: boolean;
}

/** Cases of a JSONL file, or none when the file is missing. */
export function loadBashCases(path: string): BashCase[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as BashCase);
}

/** Ours, beyond the shared sample. `/project` is the project root; `linked/key` links out of it. */
export const EXTRA_CASES: BashCase[] = loadBashCases(
  new URL("./extra-bash-cases.jsonl", import.meta.url).pathname,
);

/** The shared public cases: KEEL_BASH_CASES when set, else the copy kept beside this file. */
export const SHARED_CASES_FILE =
  process.env.KEEL_BASH_CASES ?? new URL("./shared-bash-cases.jsonl", import.meta.url).pathname;
