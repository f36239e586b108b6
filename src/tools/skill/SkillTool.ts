// Skill: skills and custom slash commands are listed (name and description) in the tool's prompt up
// front; a skill's body is read, or a command expanded, only when the model uses it.
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import * as z from "zod";
import { userHomeDir } from "../../settings/locations.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { ToolError } from "../../tool/errors.ts";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { allowedByTool, buildTool, type Tool } from "../../tool/Tool.ts";
import { commandRoots, discoverCommands } from "./commands/discoverCommands.ts";
import { expandCommand } from "./commands/expandCommand.ts";
import { discoverSkills, loadSkillBody, type SkillInfo, skillRoots } from "./discoverSkills.ts";
import { skillToolMeta } from "./meta.ts";
import { skillRuleMatcher } from "./skillRuleMatcher.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

/** The list of skills in the prompt stays small; descriptions beyond this are cut. */
const MAX_DESCRIPTION_CHARS = 250;
const MAX_LISTING_CHARS = 8_000;

export interface SkillToolConfig {
  /** The project whose skills the prompt lists. Default: process.cwd() when the prompt is built. */
  projectRoot?: string;
  env?: NodeJS.ProcessEnv;
}

const inputSchema = z.strictObject({
  skill: z.string().trim().min(1).describe('The skill\'s name, e.g. "pdf" or "release-notes"'),
  args: z.string().optional().describe("Optional arguments for the skill"),
});
export type SkillInput = z.infer<typeof inputSchema>;

export interface SkillOutput {
  /** A skill folder, or a custom slash command (its `!` lines already run, its @files included). */
  kind: "skill" | "command";
  name: string;
  source: SkillInfo["source"];
  path: string;
  dir: string;
  content: string;
}

type Offer = Pick<SkillInfo, "name" | "description" | "argumentHint">;

function listing(skills: readonly Offer[], commands: readonly Offer[]): string {
  const offered = [...skills, ...commands];
  if (offered.length === 0) return "No skills are installed. Do not call this tool.";
  const lines = ["Available skills:"];
  let size = lines[0]!.length;
  for (const [index, skill] of offered.entries()) {
    if (index === skills.length) lines.push("Custom commands (call them the same way, by name):");
    const description =
      skill.description.length > MAX_DESCRIPTION_CHARS
        ? `${skill.description.slice(0, MAX_DESCRIPTION_CHARS)}…`
        : skill.description;
    const line = `- ${skill.name}: ${description || "(no description)"}${skill.argumentHint ? ` (args: ${skill.argumentHint})` : ""}`;
    if (size + line.length > MAX_LISTING_CHARS) {
      lines.push(`- … and ${offered.length - index} more not listed here`);
      break;
    }
    lines.push(line);
    size += line.length;
  }
  return lines.join("\n");
}

/** `$ARGUMENTS` in the body takes the arguments; otherwise they are appended. */
function withArguments(body: string, args: string | undefined): string {
  if (args === undefined || args.trim() === "") return body.replaceAll("$ARGUMENTS", "");
  if (body.includes("$ARGUMENTS")) return body.replaceAll("$ARGUMENTS", args);
  return `${body}\n\nARGUMENTS: ${args}`;
}

function onlyTheUser(kind: string, name: string): ToolError {
  return new ToolError(
    "not_allowed",
    `The ${kind} "${name}" is marked disable-model-invocation: only the user can run it.`,
  );
}

export function createSkillTool(config: SkillToolConfig = {}): Tool<SkillInput, SkillOutput> {
  const env = () => config.env ?? process.env;

  /** A custom command by that name, expanded through the session's pipeline (its `!` lines ask like any Bash call). */
  async function runCommand(
    name: string,
    args: string | undefined,
    context: ToolUseContext,
    skills: readonly SkillInfo[],
  ): Promise<SkillOutput> {
    const projectRoot = context.getAppState().toolPermissionContext.projectRoot;
    const commands = await discoverCommands(commandRoots(projectRoot, env()));
    const command = commands.find((candidate) => candidate.name === name);
    if (!command) {
      const names = [...skills, ...commands].filter((item) => item.modelInvocable).map((item) => item.name);
      throw new ToolError(
        "not_found",
        `No skill named "${name}". ${names.length > 0 ? `Available skills: ${names.join(", ")}.` : "No skills are installed."}`,
      );
    }
    if (!command.modelInvocable) throw onlyTheUser("command", command.name);
    const runTool = context.options.runNestedTool;
    const expanded = await expandCommand(command, args?.trim() ?? "", {
      context,
      home: userHomeDir(env()),
      ...(runTool ? { runTool } : {}),
    });
    // As when a person types it: the command's allowed-tools hold while the model carries it out.
    context.options.promptRules?.allowUntilPromptEnds(expanded.allowRules);
    return {
      kind: "command",
      name: command.name,
      source: command.source,
      path: command.path,
      dir: dirname(command.path),
      content: expanded.prompt,
    };
  }
  return buildTool<SkillInput, SkillOutput>({
    ...skillToolMeta,
    ruleMatcher: skillRuleMatcher,
    searchHint: "run a user-defined skill (SKILL.md instructions)",
    inputSchema,
    maxResultSizeChars: 50_000,
    async prompt() {
      const root = config.projectRoot ?? process.cwd();
      const skills = await discoverSkills(skillRoots(root, env()));
      const commands = await discoverCommands(commandRoots(root, env()));
      const invocable = <T extends { modelInvocable: boolean }>(list: T[]) =>
        list.filter((item) => item.modelInvocable);
      return `${PROMPT}\n\n${listing(invocable(skills), invocable(commands))}`;
    },
    description: (input) => `Run skill ${input.skill}`,
    isReadOnly: true,
    isConcurrencySafe: true,
    // The instructions are text from the user's own skill folders; what they lead to goes through the tools' own checks.
    checkPermissions: allowedByTool("loads instructions from a configured skill folder"),

    async call(input, context) {
      const projectRoot = context.getAppState().toolPermissionContext.projectRoot;
      const skills = await discoverSkills(skillRoots(projectRoot, env()));
      const wanted = input.skill.replace(/^\//, "");
      const skill = skills.find((candidate) => candidate.name === wanted);
      if (!skill) return { data: await runCommand(wanted, input.args, context, skills) };
      if (!skill.modelInvocable) throw onlyTheUser("skill", skill.name);
      const body = withArguments(await loadSkillBody(skill), input.args);
      return {
        data: {
          kind: "skill",
          name: skill.name,
          source: skill.source,
          path: skill.path,
          dir: skill.dir,
          content: body,
        },
      };
    },

    mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
      const head =
        output.kind === "command"
          ? `Command /${output.name} loaded (${output.source}, ${output.path}). Follow its instructions below.`
          : `Skill "${output.name}" loaded (${output.source}, ${output.path}). Follow its instructions below.\nBase directory for this skill: ${output.dir} (files it mentions are relative to it)`;
      return { type: "tool_result", tool_use_id: toolUseId, content: `${head}\n\n${output.content}` };
    },
    renderToolUse: (input) => ({
      kind: "text",
      text: `Skill ${input.skill}${input.args ? ` ${input.args}` : ""}`,
    }),
    renderToolResult: (output) => ({
      kind: "text",
      text: output.kind === "command" ? `Ran command /${output.name}` : `Loaded skill ${output.name}`,
    }),
  });
}

export const SkillTool = createSkillTool();
