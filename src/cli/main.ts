// The `keel` command. Each subcommand lives in its own file under commands/ and is imported only when
// it runs (or for --help), so starting one command never pays for the others' dependencies.

import type { Command } from "commander";
import { type AgentName, isAgentName } from "../guard/types.ts";
import { parseBashWithBaselineCompilerOnly } from "../shell/analyze/grammar/wasmCompiler.ts";
import { stopSandboxIfStarted } from "../shell/sandbox/sandboxLifecycle.ts";
import { closestName } from "../tool/didYouMean.ts";
import { errorMessage } from "../tool/errors.ts";
import { exitAfterStop, installStopSignals, stoppedBy } from "../tool/stopSignals.ts";
import { keelVersion } from "../version.ts";
import { CliError, EXIT } from "./exitCodes.ts";
import { type CommandIO, type GivenStdin, processIO, stopOnOutputError } from "./io.ts";

// For scripts/warm-compile-cache.mjs, whose parses should run as a CLI process's do.
export { parseBashWithBaselineCompilerOnly };

export interface CliRuntime {
  setExitCode(code: number): void;
  /** The caller: folder, environment, terminals, output (this process's, or a decision server client's). */
  io: CommandIO;
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
  daemon: async () => (await import("./commands/daemon.ts")).register,
  worker: async () => (await import("./commands/worker.ts")).register,
  mcp: async () => {
    const { register } = await import("./commands/mcp.ts");
    return (program, runtime) => register(program, runtime);
  },
};

const VERSION_FLAGS = new Set(["-v", "--version"]);

/** Commander, loaded with the first program built: `keel hook <agent>` as agents run it never needs it. */
let commander: typeof import("commander") | undefined;

async function newProgram(io: CommandIO): Promise<Command> {
  commander ??= await import("commander");
  return (
    new commander.Command("keel")
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
          "about 0.1 s). Put a Node >= 22 first on PATH to skip it.",
      )
      .exitOverride()
      // Parse errors are printed by main() as one line that names the command's --help.
      .configureOutput({ writeOut: io.out, writeErr: io.err, outputError: () => {} })
  );
}

/**
 * `keel --deny Read tool ...`: options typed before the command name are parsed as the program's
 * (the interactive terminal's). Hand each to the command when it has the same option, else say where
 * it goes; never drop one silently (a dropped --deny or --cwd would change what runs).
 */
function passLeadingOptions(program: Command, command: Command): void {
  for (const option of program.options) {
    const key = option.attributeName();
    if (program.getOptionValueSource(key) !== "cli") continue;
    const flag = option.long ?? option.flags;
    const same = command.options.find((candidate) => candidate.long === option.long);
    if (!same)
      throw new CliError(
        `${flag} was given before the command name, and keel ${command.name()} has no ${flag} there. ` +
          `Put the options after the command name (see keel ${command.name()} --help).`,
      );
    command.setOptionValueWithSource(same.attributeName(), program.getOptionValue(key), "cli");
  }
}

/** The program with the commands this argv needs: just the named one, or all of them for help. */
export async function buildProgram(argv: readonly string[], runtime: CliRuntime): Promise<Command> {
  const program = await newProgram(runtime.io);
  program.hook("preSubcommand", passLeadingOptions);
  // Only a command name given first picks that command alone: after options, the first word may be an
  // option's value (`keel --cwd DIR tool ...`), so every command is loaded and the parse decides.
  const first = argv[0];
  const named = first !== undefined && !first.startsWith("-") ? first : undefined;
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
 * error listener and shuts down its way; this one then leaves it alone. CommandIO writes the descriptors
 * (io.ts writeOrStop, the same rule); the streams are watched once something builds them.
 */
function stopQuietlyOnClosedPipes(): void {
  if (pipesWatched) return;
  pipesWatched = true;
  for (const name of ["stdout", "stderr"] as const)
    whenBuilt(name, (stream) => {
      stream.on("error", (error: NodeJS.ErrnoException) => {
        if (stream.listenerCount("error") > 1) return;
        stopOnOutputError(name === "stdout" ? 1 : 2, error);
      });
    });
}

/**
 * Runs `use` on process.stdout or process.stderr when code first reads it. Reading it here would build
 * it: a socket or tty object, with Node's streams and net module (~4 ms), in commands that never use it.
 */
function whenBuilt(name: "stdout" | "stderr", use: (stream: NodeJS.WriteStream) => void): void {
  const descriptor = Object.getOwnPropertyDescriptor(process, name);
  const build = descriptor?.get;
  if (!descriptor?.configurable || !build) {
    use(process[name]);
    return;
  }
  Object.defineProperty(process, name, {
    ...descriptor,
    get() {
      // Node's own getter again (it keeps the stream it built), then the watch.
      Object.defineProperty(process, name, descriptor);
      const stream = build.call(process) as NodeJS.WriteStream;
      use(stream);
      return stream;
    },
  });
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
  // -p stays where it was (keel run takes it): it ends a list flag before it, as in Claude Code, so
  // `keel --allowedTools Read -p "task"` keeps "task" as the task.
  return ["run", ...argv];
}

/**
 * `keel tols`: a first word one typo away from a command is that command mistyped, not a prompt to send
 * to the model (`keel -- tols` sends it).
 */
function mistypedCommand(argv: readonly string[]): CliError | undefined {
  const first = argv[0];
  if (first === undefined || !/^[a-z]+$/.test(first) || first in COMMANDS) return undefined;
  const near = closestName(first, Object.keys(COMMANDS));
  return near
    ? new CliError(
        `Unknown command "${first}"; did you mean \`keel ${near}\`? (To send it to the agent as a prompt instead: keel -- ${first}${argv.length > 1 ? " ..." : ""})`,
      )
    : undefined;
}

/** `keel mcp list --help` for a parse error in `keel mcp list ...`: the help of the command typed. */
function helpCommandFor(argv: readonly string[]): string {
  const words: string[] = [];
  for (const arg of argv) {
    if (arg.startsWith("-")) break;
    if (words.length === 0 ? !(arg in COMMANDS) : !MCP_SUBCOMMANDS.has(arg) || words[0] !== "mcp") break;
    words.push(arg);
  }
  return ["keel", ...words, "--help"].join(" ");
}

const MCP_SUBCOMMANDS = new Set(["serve", "list", "login", "logout"]);

/**
 * Runs the CLI in this process and resolves to the exit code. `given.stdin`: standard input the launcher
 * already read (a hook event offered to a decision server that did not answer). Stopped by SIGINT,
 * SIGTERM or SIGHUP, it ends the process itself once the command has wound down (tool/stopSignals.ts),
 * whatever handles (stdin, sockets) are still open.
 */
export async function main(
  givenArgv: readonly string[],
  given: { stdin?: GivenStdin } = {},
): Promise<number> {
  installStopSignals();
  stopQuietlyOnClosedPipes();
  parseBashWithBaselineCompilerOnly();
  try {
    return await runCommandLine(givenArgv, processIO(given.stdin));
  } finally {
    // The sandbox's proxies would keep the process running after its command is done.
    await stopSandboxIfStarted().catch(() => {});
    const signal = stoppedBy();
    if (signal) await exitAfterStop(signal);
  }
}

/**
 * `keel hook <agent>` as an agent runs it, its event on stdin: answered without building the command
 * line's parser (commander, and every option: a few ms of each hook call). Anything more on the line
 * (--strict, --help, a stray argument), or stdin a terminal, goes through the parser as before.
 */
function plainHookCall(argv: readonly string[], io: CommandIO): AgentName | undefined {
  const [command, agent, ...rest] = argv;
  if (command !== "hook" || agent === undefined || rest.length > 0 || !isAgentName(agent)) return undefined;
  return io.stdin === undefined && io.tty.stdin ? undefined : agent;
}

/**
 * Runs one command line for a caller given as data (`io`) and resolves to the exit code. Errors are
 * printed for a person, never as stack traces.
 */
export async function runCommandLine(givenArgv: readonly string[], io: CommandIO): Promise<number> {
  const argv = printModeArgv(givenArgv);
  let exitCode: number = EXIT.ok;
  try {
    const mistyped = mistypedCommand(argv);
    if (mistyped) throw mistyped;
    const hookCall = plainHookCall(argv, io);
    if (hookCall) return await (await import("./commands/hook.ts")).answerHookEvent(hookCall, io);
    const program = await buildProgram(argv, {
      io,
      setExitCode: (code) => {
        exitCode = code;
      },
    });
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    if (commander && error instanceof commander.CommanderError) {
      if (["commander.helpDisplayed", "commander.version", "commander.help"].includes(error.code))
        return EXIT.ok;
      // Commander puts its "(Did you mean --allow?)" on a line of its own.
      const message = error.message.replace(/^error: /, "").replace(/\s*\n\s*/g, " ");
      io.err(`keel: ${message} (see ${helpCommandFor(argv)})\n`);
      return EXIT.usage;
    }
    if (error instanceof CliError) {
      io.err(`keel: ${error.message}\n`);
      return error.exitCode;
    }
    io.err(`keel: unexpected error: ${errorMessage(error)}\n`);
    if (io.env.KEEL_DEBUG) io.err(`${(error as Error)?.stack ?? ""}\n`);
    return EXIT.toolError;
  }
}

/**
 * `bin/keel.js --keel-decision-server SOCKET BUILD`: the warm process that answers `keel hook` and
 * `keel check` for the launcher (see decisionServer/server.ts).
 */
export async function serveDecisions(socket: string, build: string, entryFile: string): Promise<void> {
  const [{ serveDecisions: serve }, { warmUpDecisions }, { keepTelemetryFlushed }] = await Promise.all([
    import("./decisionServer/server.ts"),
    import("./decisionServer/warmUp.ts"),
    import("../telemetry/flushMode.ts"),
  ]);
  // The decisions it answers are exported from this warm process, not by a flusher process per burst.
  keepTelemetryFlushed();
  parseBashWithBaselineCompilerOnly();
  await serve({ socket, build, entryFile, warmUp: warmUpDecisions });
}
