// The `keel` command. Each subcommand lives in its own file under commands/ and is imported only when
// it runs (or for --help), so starting one command never pays for the others' dependencies.

import { Command, CommanderError } from "commander";
import { stopSandboxIfStarted } from "../shell/sandboxLifecycle.ts";
import { errorMessage } from "../tool/errors.ts";
import { keelVersion } from "../version.ts";
import { CliError, EXIT } from "./exitCodes.ts";

export interface CliRuntime {
  setExitCode(code: number): void;
}

type Register = (program: Command, runtime: CliRuntime) => void;

/** Subcommand name -> how to load its registration. One line per command. */
const COMMANDS: Record<string, () => Promise<Register>> = {
  tools: async () => (await import("./commands/tools.ts")).register,
  tool: async () => (await import("./commands/tool.ts")).register,
  check: async () => (await import("./commands/check.ts")).register,
  run: async () => (await import("./commands/run.ts")).register,
  permissions: async () => (await import("./commands/permissions.ts")).register,
  hooks: async () => (await import("./commands/hooks.ts")).register,
  audit: async () => (await import("./commands/audit.ts")).register,
  hook: async () => (await import("./commands/hook.ts")).register,
  trust: async () => (await import("./commands/trust.ts")).register,
  doctor: async () => (await import("./commands/doctor.ts")).register,
  mcp: async () => {
    const { register } = await import("./commands/mcp.ts");
    return (program, runtime) => register(program, runtime);
  },
};

const VERSION_FLAGS = new Set(["-v", "--version"]);

function newProgram(): Command {
  return new Command("keel")
    .description(
      "Keel: the governed tool system of a coding agent.\n" +
        "Every call goes through one pipeline: schema, validation, permission rules and modes, hooks, result budget.",
    )
    .version(keelVersion(), "-v, --version")
    .addHelpText(
      "after",
      '\nClaude Code\'s `claude -p "task"` works as `keel -p "task"` (the same as `keel run "task"`).\n' +
        "Node: Keel needs Node >= 22. Started by an older node, bin/keel.js runs itself again on the Node 24\n" +
        "that `npm install` put in node_modules: one more Node start on every command (Debian's Node 20:\n" +
        "about 0.16 s). Put a Node >= 22 first on PATH to skip it.",
    )
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
}

/** The program with the commands this argv needs: just the named one, or all of them for help. */
export async function buildProgram(argv: readonly string[], runtime: CliRuntime): Promise<Command> {
  const program = newProgram();
  const named = argv.find((arg) => !arg.startsWith("-"));
  const versionOnly = named === undefined && argv.some((arg) => VERSION_FLAGS.has(arg));
  const wanted = versionOnly
    ? []
    : named !== undefined && named in COMMANDS
      ? [named]
      : Object.keys(COMMANDS);
  for (const name of wanted) (await COMMANDS[name]!())(program, runtime);
  if (!versionOnly && !(named !== undefined && named in COMMANDS))
    (await import("./commands/interactive.ts")).register(program, runtime);
  return program;
}

let pipesWatched = false;

/**
 * `keel tools | head`: when the reader of stdout or stderr goes away, stop quietly instead of dying
 * with an EPIPE stack trace. A command that owns the stream (the MCP server on stdout) adds its own
 * error listener and shuts down its way; this one then leaves it alone.
 */
function stopQuietlyOnClosedPipes(): void {
  if (pipesWatched) return;
  pipesWatched = true;
  for (const stream of [process.stdout, process.stderr]) {
    const onError = (error: NodeJS.ErrnoException) => {
      if (stream.listenerCount("error") > 1) return;
      if (error.code !== "EPIPE" && stream !== process.stderr)
        process.stderr.write(`keel: cannot write the output: ${errorMessage(error)}\n`);
      process.exit(error.code === "EPIPE" ? (process.exitCode ?? EXIT.ok) : EXIT.toolError);
    };
    stream.on("error", onError);
  }
}

const PRINT_FLAGS = new Set(["-p", "--print"]);

/**
 * Claude Code's print mode: `keel -p "task" [flags]` is `keel run "task" [flags]`. Only where no other
 * subcommand is named (`-p` first always means print mode); words after `--` are the task's own.
 */
export function printModeArgv(argv: readonly string[]): readonly string[] {
  const end = argv.indexOf("--");
  const options = end === -1 ? argv : argv.slice(0, end);
  if (!options.some((arg) => PRINT_FLAGS.has(arg))) return argv;
  const named = options.find((arg) => !arg.startsWith("-"));
  if (!PRINT_FLAGS.has(argv[0] ?? "") && named !== undefined && named in COMMANDS) return argv;
  const rest = end === -1 ? [] : argv.slice(end);
  return ["run", ...options.filter((arg) => !PRINT_FLAGS.has(arg)), ...rest];
}

/** Runs the CLI and resolves to the exit code. Errors are printed for a person, never as stack traces. */
export async function main(givenArgv: readonly string[]): Promise<number> {
  stopQuietlyOnClosedPipes();
  const argv = printModeArgv(givenArgv);
  let exitCode: number = EXIT.ok;
  try {
    const program = await buildProgram(argv, {
      setExitCode: (code) => {
        exitCode = code;
      },
    });
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (["commander.helpDisplayed", "commander.version", "commander.help"].includes(error.code))
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
  } finally {
    // The sandbox's proxies would keep the process running after its command is done.
    await stopSandboxIfStarted().catch(() => {});
  }
}
