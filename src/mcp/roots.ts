// The client's roots (file:// URIs it offers) become working directories of the MCP session, beside the
// ones from --cwd and --add-dir. Roots that are not local folders are ignored.
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type ToolUseContext, updatePermissionContext, type WorkingDirectory } from "../tool/context.ts";

export function rootDirectories(roots: readonly { uri: string }[]): string[] {
  const dirs: string[] = [];
  for (const root of roots) {
    if (!root.uri.startsWith("file:")) continue;
    let path: string;
    try {
      path = resolve(fileURLToPath(root.uri));
    } catch {
      continue;
    }
    try {
      if (statSync(path).isDirectory() && !dirs.includes(path)) dirs.push(path);
    } catch {
      // A root that does not exist here (another machine's path) grants nothing.
    }
  }
  return dirs;
}

/** Replaces the root-derived working directories, keeping the configured ones. */
export function applyRoots(
  context: ToolUseContext,
  configured: readonly WorkingDirectory[],
  roots: readonly { uri: string }[],
): string[] {
  const dirs = rootDirectories(roots);
  context.setAppState((state) => {
    const permission = state.toolPermissionContext;
    const known = new Set([permission.projectRoot, ...configured.map((dir) => dir.path)]);
    const fromRoots = dirs
      .filter((dir) => !known.has(dir))
      .map((path) => ({ path, source: "session" as const }));
    return {
      ...state,
      toolPermissionContext: updatePermissionContext(permission, {
        additionalWorkingDirectories: [...configured.map((dir) => ({ ...dir })), ...fromRoots],
      }),
    };
  });
  return dirs;
}
