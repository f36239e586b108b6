// The `keel` command. Each subcommand lives in its own file under commands/.
import { Command, CommanderError } from "commander";
import { errorMessage } from "../tool/errors.ts";
import * as check from "./commands/check.ts";
import * as tool from "./commands/tool.ts";
import * as tools from "./commands/tools.ts";
import { CliError, EXIT } from "./exitCodes.ts";

const VERSION = "0.1.0";

export function buildProgram(setExitCode: (code: number) => void): Command {
  const program = new Command("keel")
    .description(
      "Keel: the governed tool system of a coding agent.\n" +
        "Every call goes through one pipeline: schema, validation, permission rules and modes, hooks, result budget.",
    )
    .version(VERSION, "-v, --version")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  tools.register(program);
  tool.register(program, setExitCode);
  check.register(program);
  return program;
}

/** Runs the CLI and resolves to the exit code. Errors are printed for a person, never as stack traces. */
export async function main(argv: readonly string[]): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = buildProgram((code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === "commander.helpDisplayed" ||
        error.code === "commander.version" ||
        error.code === "commander.help"
      )
        return EXIT.ok;
      return EXIT.usage;
    }
    if (error instanceof CliError) {
      process.stderr.write(`keel: ${error.message}\n`);
      return error.exitCode;
    }
    process.stderr.write(`keel: unexpected error: ${errorMessage(error)}\n`);
    if (process.env.KEEL_DEBUG) process.stderr.write(`${(error as Error)?.stack ?? ""}\n`);
    return EXIT.toolError;
  }
}
