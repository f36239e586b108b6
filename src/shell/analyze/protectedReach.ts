// Which protected folders and files a write can reach without naming them: a folder changed whole
// (chmod -R, find -exec, a copy whose names are not known) reaches every protected entry it holds, and
// a recursive copy of a folder writes the protected entries of its source under the destination.
import { readdirSync } from "node:fs";
import { join, sep } from "node:path";
import { couldNameProtected, isPathWithin } from "../../permissions/paths.ts";
import { workingDirectories } from "../../tool/context.ts";
import type { Scope } from "./pathScope.ts";

/** Entries looked at in one walk of a source folder; a larger tree is not known to be free of protected names. */
const WALK_BUDGET = 2_000;

function entries(folder: string): Array<{ name: string; folder: boolean }> | undefined {
  try {
    return readdirSync(folder, { withFileTypes: true }).map((entry) => ({
      name: entry.name,
      folder: entry.isDirectory(),
    }));
  } catch {
    return undefined;
  }
}

function isProtectedName(name: string): boolean {
  const lower = name.toLowerCase();
  return couldNameProtected((protectedName) => protectedName === lower);
}

/** The first protected entry directly inside `folder` (`.git`, `.claude`, `.bashrc`...), or undefined. */
function protectedChild(folder: string): string | undefined {
  const found = entries(folder)?.find((entry) => isProtectedName(entry.name));
  return found ? join(folder, found.name) : undefined;
}

/**
 * A protected path that a write changing everything inside `folder` reaches: one of its own entries,
 * or one of a working directory or the home folder that it holds.
 */
export function protectedInside(folder: string, scope: Scope): string | undefined {
  const own = protectedChild(folder);
  if (own) return own;
  const roots = [...workingDirectories(scope.context), scope.context.caller.home];
  for (const root of roots) {
    if (root === folder || !isPathWithin(root, folder)) continue;
    const held = protectedChild(root);
    if (held) return held;
  }
  return undefined;
}

/**
 * The protected entries anywhere below `folder`, relative to it (a recursive copy writes them under its
 * destination), or undefined when the tree is too large to look through.
 */
export function protectedBelow(folder: string): string[] | undefined {
  const found: string[] = [];
  const pending = [""];
  let seen = 0;
  while (pending.length > 0) {
    const relative = pending.pop() as string;
    const listed = entries(relative === "" ? folder : join(folder, relative));
    if (!listed) continue;
    seen += listed.length;
    if (seen > WALK_BUDGET) return undefined;
    for (const entry of listed) {
      const path = relative === "" ? entry.name : `${relative}${sep}${entry.name}`;
      if (isProtectedName(entry.name)) found.push(path);
      else if (entry.folder) pending.push(path);
    }
  }
  return found;
}
