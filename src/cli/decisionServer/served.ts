// Which command lines a decision server answers. The client asks before sending one, and the server
// asks again of every request it gets: anything else (the agent, an MCP server, a tool that writes)
// never runs in it.
import { AGENTS } from "../../guard/types.ts";
import type { TtyFlags } from "./protocol.ts";

/** Help prints for a person; --jsonl reads calls from stdin, one session for several (tool.ts). */
const NOT_SERVED_FLAGS = new Set(["-h", "--help", "--jsonl"]);

/**
 * Keel's tools that only read: a server may run them. Not from a terminal, where a call that needs
 * approval asks the person (a server cannot), and never the tools that change files or run commands.
 */
const SERVED_TOOLS: ReadonlySet<string> = new Set(["Read", "Grep", "Glob", "LS"]);

/**
 * The commands a server answers: one hook event from stdin, one check with its input given, one call
 * of a read-only tool with its input given and no terminal to ask on.
 */
export function servedCommand(
  argv: readonly string[],
  tty: Pick<TtyFlags, "stdin" | "stderr">,
): "hook" | "check" | "tool" | undefined {
  if (argv.some((arg) => NOT_SERVED_FLAGS.has(arg))) return undefined;
  const [command, first, second] = argv;
  if (command === "hook" && first !== undefined && (AGENTS as readonly string[]).includes(first))
    return tty.stdin ? undefined : "hook";
  if (first === undefined || second === undefined || first.startsWith("-") || second.startsWith("-"))
    return undefined;
  if (command === "check") return "check";
  if (command === "tool" && SERVED_TOOLS.has(first) && !(tty.stdin && tty.stderr)) return "tool";
  return undefined;
}
