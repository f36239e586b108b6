// Flags shared by every command that decides or runs a call.
import type { Command } from "commander";
import { PERMISSION_MODES } from "../../permissions/types.ts";
import { collect } from "../session.ts";

export function withPolicyOptions(command: Command): Command {
  return command
    .option("--cwd <dir>", "project directory: the first working directory (default: current directory)")
    .option("--mode <mode>", `permission mode: ${PERMISSION_MODES.join(", ")}`)
    .option("--allow <rule>", "allow rule, e.g. 'Bash(npm test:*)' (repeatable)", collect)
    .option("--deny <rule>", "deny rule, e.g. 'Read(./.env)' (repeatable)", collect)
    .option("--ask <rule>", "ask rule (repeatable)", collect)
    .option("--add-dir <dir>", "another working directory (repeatable)", collect)
    .option("--settings <file>", "an extra settings file, read with command-line precedence")
    .option("--trust", "trust the project folder: apply its own allow rules, hooks, mode and env");
}

/** `--mcp-config` for commands that use MCP servers' tools (not `keel mcp`, which defines its own). */
export function withMcpOptions(command: Command): Command {
  return command
    .option("--mcp-config <file-or-json>", "MCP servers from this file or inline JSON (repeatable)", collect)
    .option("--strict-mcp-config", "use only the MCP servers from --mcp-config");
}
