// The TypeScript server knows a project through its tsconfig.json or jsconfig.json; without one it
// sees only the files opened so far, so answers that span files (references, callers, implementations,
// symbols) miss the rest. Such answers say so, rather than look complete.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import type { LspOperation } from "./operations.ts";

const SPANS_FILES: ReadonlySet<LspOperation> = new Set([
  "findReferences",
  "workspaceSymbol",
  "goToImplementation",
  "incomingCalls",
]);

const CONFIG_FILES = ["tsconfig.json", "jsconfig.json"];

/** Whether a tsconfig.json or jsconfig.json sits in the file's folder or above it, up to `root`. */
export function hasProjectConfig(path: string, root: string): boolean {
  let dir = dirname(path);
  for (;;) {
    if (CONFIG_FILES.some((name) => existsSync(join(dir, name)))) return true;
    const parent = dirname(dir);
    if (dir === root || parent === dir || !dir.startsWith(root)) return false;
    dir = parent;
  }
}

/** The note for a TypeScript answer spanning files when no project config covers the file, or undefined. */
export function projectConfigNote(
  serverName: string,
  operation: LspOperation,
  path: string,
  root: string,
): string | undefined {
  if (serverName !== "typescript" || !SPANS_FILES.has(operation) || hasProjectConfig(path, root))
    return undefined;
  return "(No tsconfig.json or jsconfig.json covers this file, so the TypeScript server knows only the files opened so far: results in other files may be missing. Grep finds text matches across the project.)";
}
