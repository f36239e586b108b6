// Custom slash commands for the person at the keyboard (`keel run "/name args"`, `/name args` in the
// terminal UI): found in the session's project and the user's folders, expanded through the session's
// pipeline (its rules, hooks, prompter and audit), and sent as the prompt.
import { userHomeDir } from "../settings/locations.ts";
import {
  type CommandInfo,
  commandRoots,
  discoverCommands,
  findCommand,
} from "../tools/skill/commands/discoverCommands.ts";
import { type ExpandedCommand, expandCommand } from "../tools/skill/commands/expandCommand.ts";
import type { Agent } from "./Agent.ts";

export type { CommandInfo, ExpandedCommand };

export function listCustomCommands(
  agent: Agent,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CommandInfo[]> {
  const projectRoot = agent.context.getAppState().toolPermissionContext.projectRoot;
  return discoverCommands(commandRoots(projectRoot, env));
}

/** The expansion of `/name args`, or undefined when the line does not name a custom command. */
export async function expandSlashLine(
  agent: Agent,
  line: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ExpandedCommand | undefined> {
  if (!line.trimStart().startsWith("/")) return undefined;
  const found = findCommand(await listCustomCommands(agent, env), line);
  if (!found) return undefined;
  const context = agent.context;
  return expandCommand(found.command, found.args, {
    context,
    home: userHomeDir(env),
    ...(context.options.runNestedTool ? { runTool: context.options.runNestedTool } : {}),
  });
}

/** `/name <hint>  description (project)`, for /help. */
export function describeCommand(command: CommandInfo): { usage: string; description: string } {
  return {
    usage: `/${command.name}${command.argumentHint ? ` ${command.argumentHint}` : ""}`,
    description: `${command.description || "(no description)"} (${command.source})`,
  };
}
