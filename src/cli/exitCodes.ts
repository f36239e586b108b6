// The `keel` command's exit codes, one meaning each.
export const EXIT = {
  ok: 0,
  /** The tool ran and returned an error. */
  toolError: 1,
  /** Bad flags, bad JSON input, broken settings. */
  usage: 2,
  /** Refused by policy, or needs an approval nobody can give (stdin is not a terminal). */
  refused: 3,
} as const;

/** A failure to report on stderr with an exit code; never a stack trace. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number = EXIT.usage) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}
