// A project's `.mcp.json` (servers the repository asks to start). It starts programs, so it is read
// only for trusted folders; otherwise its presence is reported and nothing else is done with it.
import { statSync } from "node:fs";
import * as z from "zod";
import { parseContext } from "../tool/parseContext.ts";
import { positionOf } from "./jsonPositions.ts";
import { projectMcpJsonPath } from "./locations.ts";
import type { McpServerEntry } from "./merge.ts";
import { formatJsonPath, parseSettingsJson, readSettingsText, SettingsError } from "./readSettingsFile.ts";
import { McpServerSettingsSchema } from "./schema.ts";

const McpJsonSchema = z.looseObject({ mcpServers: z.record(z.string(), McpServerSettingsSchema).optional() });

export interface ProjectMcpServers {
  servers: McpServerEntry[];
  /** Set when the file exists but the folder is not trusted. */
  ignored?: { file: string; ignored: string[] };
}

export function readProjectMcpJson(projectRoot: string, options: { trusted: boolean }): ProjectMcpServers {
  const file = projectMcpJsonPath(projectRoot);
  // A folder there is no configuration: the confinement's stand-in while a Bash command runs, or a mistake.
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return { servers: [] };
  if (!options.trusted) return { servers: [], ignored: { file, ignored: ["MCP servers (.mcp.json)"] } };
  const text = readSettingsText(file);
  if (text === undefined) return { servers: [] };
  const parsed = parseSettingsJson(text, file);
  const result = McpJsonSchema.safeParse(parsed.value, parseContext());
  if (!result.success) {
    throw new SettingsError(
      result.error.issues.map((issue) => {
        const { line, column } = positionOf(parsed, issue.path);
        return { file, line, column, path: formatJsonPath(issue.path), message: issue.message };
      }),
    );
  }
  return {
    servers: Object.entries(result.data.mcpServers ?? {}).map(([name, config]) => ({
      name,
      config,
      source: "project" as const,
      file,
    })),
  };
}
