// Flags shared by every command that decides or runs a call, with Claude Code's names beside Keel's.
import { type Command, Option } from "commander";
import { PERMISSION_MODES } from "../../permissions/types.ts";
import { collect, type LabeledRule } from "../session.ts";

export function withPolicyOptions(command: Command): Command {
  return command
    .option("--cwd <dir>", "project directory: the first working directory (default: current directory)")
    .option("--mode <mode>", `permission mode: ${PERMISSION_MODES.join(", ")}`)
    .option("--permission-mode <mode>", "the same as --mode (Claude Code's name)")
    .option("--dangerously-skip-permissions", "the same as --mode bypassPermissions (Claude Code's name)")
    .option("--allow <rule>", "allow rule, e.g. 'Bash(npm test:*)' (repeatable)", collect)
    .option("--deny <rule>", "deny rule, e.g. 'Read(./.env)' (repeatable)", collect)
    .option("--ask <rule>", "ask rule (repeatable)", collect)
    .option("--add-dir <dir>", "another working directory (repeatable)", collect)
    .option("--settings <file>", "an extra settings file, read with command-line precedence")
    .option(
      "--trust",
      "trust the project folder for this command only: apply its own allow rules, hooks, mode and env (`keel trust` remembers it)",
    );
}

/** Collects each value of a Claude Code style rule list with the flag it was typed under. */
function labeled(flag: string) {
  return (value: string, previous: LabeledRule[] = []): LabeledRule[] => [...previous, { flag, rule: value }];
}

/**
 * Claude Code's rule lists: `--allowedTools Read "Bash(git log:*)"` (several values, until the next
 * flag) or `--allowedTools "Read,Bash(git log:*)"`. Only on the agent's commands, whose task comes
 * first or after `--`; `keel tool` and `keel check` keep their one-rule-per-flag `--allow`.
 */
export function withClaudeRuleOptions(command: Command): Command {
  const list = (flags: string, description: string, flag: string, hidden = false) => {
    const option = new Option(flags, description).argParser(labeled(flag));
    return hidden ? option.hideHelp() : option;
  };
  return command
    .addOption(
      list(
        "--allowedTools <rules...>",
        "allow rules, Claude Code style: several values or one comma-separated list",
        "--allowedTools",
      ),
    )
    .addOption(list("--allowed-tools <rules...>", "", "--allowed-tools", true))
    .addOption(
      list(
        "--disallowedTools <rules...>",
        "deny rules, Claude Code style (a bare tool name hides the tool)",
        "--disallowedTools",
      ),
    )
    .addOption(list("--disallowed-tools <rules...>", "", "--disallowed-tools", true));
}

/** `--mcp-config` for commands that use MCP servers' tools (not `keel mcp`, which defines its own). */
export function withMcpOptions(command: Command): Command {
  return command
    .option("--mcp-config <file-or-json>", "MCP servers from this file or inline JSON (repeatable)", collect)
    .option("--strict-mcp-config", "use only the MCP servers from --mcp-config");
}
