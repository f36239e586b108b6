// What extraction yields: simple commands with their words, assignments and redirects, the operators
// between them, and the constructs it could not represent.
import type { SimpleCommand } from "./parse.ts";
import type { Word } from "./words.ts";

export interface Redirect {
  op: string;
  /** The target word (file, fd number, heredoc delimiter or here-string); undefined for `<&-`. */
  target?: Word;
  fd?: number;
  /** Heredoc body as written, and whether its delimiter was quoted (no expansion inside). */
  heredoc?: { body: string; quoted: boolean; dynamic: boolean };
}

export interface ExtractedCommand {
  simple: SimpleCommand;
  words: Word[];
  assignments: Array<{ name: string; value: Word; append: boolean }>;
  redirects: Redirect[];
  /** Its stdin comes from the previous command of a pipeline. */
  pipedInput: boolean;
}

export interface Problem {
  check: string;
  reason: string;
}

export interface Extraction {
  commands: ExtractedCommand[];
  operators: string[];
  problems: Problem[];
}
