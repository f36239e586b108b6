// Skill: skills are listed (name and description) in the tool's prompt up front; a skill's body is read
// only when the model uses it.

import { readFileSync } from "node:fs";
import { z } from "zod";
import { ToolError } from "../../tool/errors.ts";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { buildTool, type Tool } from "../../tool/Tool.ts";
import { discoverSkills, loadSkillBody, type SkillInfo, skillRoots } from "./discoverSkills.ts";
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
  name: string;
  source: SkillInfo["source"];
  path: string;
  dir: string;
  content: string;
}

function listing(skills: readonly SkillInfo[]): string {
  const offered = skills.filter((skill) => skill.modelInvocable);
  if (offered.length === 0) return "No skills are installed. Do not call this tool.";
  const lines = ["Available skills:"];
  let size = lines[0]!.length;
  for (const skill of offered) {
    const description =
      skill.description.length > MAX_DESCRIPTION_CHARS
        ? `${skill.description.slice(0, MAX_DESCRIPTION_CHARS)}…`
        : skill.description;
    const line = `- ${skill.name}: ${description || "(no description)"}${skill.argumentHint ? ` (args: ${skill.argumentHint})` : ""}`;
    if (size + line.length > MAX_LISTING_CHARS) {
      lines.push(`- … and ${offered.length - (lines.length - 1)} more skills not listed here`);
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

export function createSkillTool(config: SkillToolConfig = {}): Tool<SkillInput, SkillOutput> {
  const env = () => config.env ?? process.env;
  return buildTool<SkillInput, SkillOutput>({
    name: "Skill",
    ruleMatcher: skillRuleMatcher,
    searchHint: "run a user-defined skill (SKILL.md instructions)",
    inputSchema,
    maxResultSizeChars: 50_000,
    async prompt() {
      const skills = await discoverSkills(skillRoots(config.projectRoot ?? process.cwd(), env()));
      return `${PROMPT}\n\n${listing(skills)}`;
    },
    description: (input) => `Run skill ${input.skill}`,
    isReadOnly: true,
    isConcurrencySafe: true,
    // The instructions are text from the user's own skill folders; what they lead to goes through the tools' own checks.
    checkPermissions: async (input) => ({
      behavior: "allow",
      updatedInput: input,
      decisionReason: { type: "tool", reason: "loads instructions from a configured skill folder" },
    }),

    async call(input, context) {
      const projectRoot = context.getAppState().toolPermissionContext.projectRoot;
      const skills = await discoverSkills(skillRoots(projectRoot, env()));
      const wanted = input.skill.replace(/^\//, "");
      const skill = skills.find((candidate) => candidate.name === wanted);
      if (!skill) {
        const names = skills.filter((s) => s.modelInvocable).map((s) => s.name);
        throw new ToolError(
          "not_found",
          `No skill named "${wanted}". ${names.length > 0 ? `Available skills: ${names.join(", ")}.` : "No skills are installed."}`,
        );
      }
      if (!skill.modelInvocable)
        throw new ToolError(
          "not_allowed",
          `The skill "${skill.name}" is marked disable-model-invocation: only the user can run it.`,
        );
      const body = withArguments(await loadSkillBody(skill), input.args);
      return {
        data: { name: skill.name, source: skill.source, path: skill.path, dir: skill.dir, content: body },
      };
    },

    mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
      return {
        type: "tool_result",
        tool_use_id: toolUseId,
        content: `Skill "${output.name}" loaded (${output.source}, ${output.path}). Follow its instructions below.\nBase directory for this skill: ${output.dir} (files it mentions are relative to it)\n\n${output.content}`,
      };
    },
    renderToolUse: (input) => ({
      kind: "text",
      text: `Skill ${input.skill}${input.args ? ` ${input.args}` : ""}`,
    }),
    renderToolResult: (output) => ({ kind: "text", text: `Loaded skill ${output.name}` }),
  });
}

export const SkillTool = createSkillTool();
