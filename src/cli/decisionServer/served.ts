// What a decision server runs for a request: the command line a process of its own would run
// (`keel hook <agent>`, `keel check <Name> <json>`), through runCommandLine with the client's caller as
// data: its folder, environment, terminal flags and standard input, and its output captured for the
// reply. Audit records are held until the client acknowledges the answer (audit/heldSink.ts).
import { type HeldAuditSink, heldAuditSink, type RecordHolder } from "../../audit/heldSink.ts";
import { AGENTS } from "../../guard/types.ts";
import type { CommandIO, GivenStdin, TtyFlags } from "../io.ts";
import type { ServedCommand } from "./protocol.ts";

/** Help prints for a person; `-` reads the input from stdin, which a server request does not carry. */
const NOT_SERVED_ARGS = new Set(["-h", "--help", "-"]);

/**
 * The commands a server answers: one hook event from stdin (not typed on a terminal), one check with
 * its input given as an argument. Asked by the client before it sends, and by the server of every request.
 */
export function servedCommand(
  argv: readonly string[],
  tty: Pick<TtyFlags, "stdin">,
): ServedCommand | undefined {
  if (argv.some((arg) => NOT_SERVED_ARGS.has(arg))) return undefined;
  const [command, first, second] = argv;
  if (command === "hook" && first !== undefined && (AGENTS as readonly string[]).includes(first))
    return tty.stdin ? undefined : "hook";
  if (command !== "check" || first === undefined || second === undefined) return undefined;
  return first.startsWith("-") || second.startsWith("-") ? undefined : "check";
}

export interface DecideRequest {
  command: ServedCommand;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  tty: TtyFlags;
  stdin?: GivenStdin;
}

export type ServedOutcome =
  | {
      kind: "done";
      stdout: string;
      stderr: string;
      exitCode: number;
      /** The client will use the answer: write its audit records. */
      keep(): void;
      /** The client went away: forget them. */
      discard(): void;
    }
  | { kind: "declined"; reason: string };

/** Decides one request as `keel <argv>` in a process of its own would, for the request's caller. */
export async function decideServed(request: DecideRequest, signal: AbortSignal): Promise<ServedOutcome> {
  if (servedCommand(request.argv, request.tty) !== request.command)
    return { kind: "declined", reason: "not a command a server runs" };
  const held: HeldAuditSink[] = [];
  const holdRecords: RecordHolder = (log) => {
    const sink = heldAuditSink(log);
    held.push(sink);
    return sink;
  };
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CommandIO = {
    cwd: request.cwd,
    env: request.env,
    tty: request.tty,
    out: (text) => void stdout.push(text),
    err: (text) => void stderr.push(text),
    ...(request.stdin === undefined ? {} : { stdin: request.stdin }),
    holdRecords,
    signal,
  };
  const { runCommandLine } = await import("../main.ts");
  const exitCode = await runCommandLine(request.argv, io);
  return {
    kind: "done",
    stdout: stdout.join(""),
    stderr: stderr.join(""),
    exitCode,
    keep: () => {
      for (const sink of held) sink.keep();
    },
    discard: () => {
      for (const sink of held) sink.drop();
    },
  };
}
