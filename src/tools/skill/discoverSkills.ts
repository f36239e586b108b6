// Skills: folders holding a SKILL.md, found in the project's `.keel/skills` and `.claude/skills`, then the
// user's `~/.keel/skills` and `~/.claude/skills`. The first skill of a name wins, in that order.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { type ConfigFolder, configFolders } from "../../settings/locations.ts";
import { type FrontmatterValue, parseFrontmatter, readFrontmatterFile } from "./frontmatter.ts";

export type SkillRoot = ConfigFolder;

export interface SkillInfo {
  name: string;
  description: string;
  source: "project" | "user";
  /** The skill's folder; files its instructions mention are relative to it. */
  dir: string;
  path: string;
  argumentHint?: string;
  /** `disable-model-invocation: true`: only a person may run it, so it is not offered to the model. */
  modelInvocable: boolean;
}

export function skillRoots(projectRoot: string, env: NodeJS.ProcessEnv = process.env): SkillRoot[] {
  return configFolders(projectRoot, "skills", env);
}

function text(value: FrontmatterValue | undefined): string | undefined {
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  if (Array.isArray(value) && value.length > 0) return value.join(", ");
  return undefined;
}

/** The first paragraph of the body that is not a heading, for skills without a description. */
function firstParagraph(body: string): string {
  for (const block of body.split(/\n\s*\n/)) {
    const lines = block.split("\n").filter((line) => line.trim() !== "" && !line.trim().startsWith("#"));
    if (lines.length > 0) return lines.join(" ").trim().slice(0, 300);
  }
  return "";
}

async function readSkill(
  dir: string,
  folder: string,
  source: SkillRoot["source"],
): Promise<SkillInfo | undefined> {
  const skillDir = join(dir, folder);
  const path = join(skillDir, "SKILL.md");
  const document = await readFrontmatterFile(path);
  if (!document) return undefined;
  const { attributes, body } = document;
  const argumentHint = text(attributes["argument-hint"]);
  return {
    name: text(attributes.name) ?? folder,
    description: text(attributes.description) ?? firstParagraph(body),
    source,
    dir: skillDir,
    path,
    ...(argumentHint ? { argumentHint } : {}),
    modelInvocable: attributes["disable-model-invocation"] !== true,
  };
}

export async function discoverSkills(roots: readonly SkillRoot[]): Promise<SkillInfo[]> {
  const found: SkillInfo[] = [];
  const names = new Set<string>();
  for (const root of roots) {
    let folders: string[];
    try {
      const entries = await readdir(root.dir, { withFileTypes: true });
      folders = entries
        .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
        .map((entry) => entry.name)
        .filter((name) => !name.startsWith("."))
        .sort();
    } catch {
      continue;
    }
    for (const folder of folders) {
      const skill = await readSkill(root.dir, folder, root.source);
      if (!skill || names.has(skill.name)) continue;
      names.add(skill.name);
      found.push(skill);
    }
  }
  return found;
}

/** The instructions of a skill, read when it is used (front matter dropped). */
export async function loadSkillBody(skill: SkillInfo): Promise<string> {
  return parseFrontmatter(await readFile(skill.path, "utf8")).body.trim();
}
