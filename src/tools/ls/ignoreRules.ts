// Ignore files as ripgrep reads them, for LS's own walk: .gitignore, .ignore and .rgignore in each
// folder (later files win within a folder), .git/info/exclude at a repository root, and the same
// files in the folders above the listed one. Deeper folders win over shallower ones.
import { readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import ignore, { type Ignore } from "ignore";

const IGNORE_FILES = [".gitignore", ".ignore", ".rgignore"];

export interface IgnoreLayer {
  /** The folder the patterns are relative to. */
  base: string;
  matcher: Ignore;
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/** A folder's own ignore patterns, or undefined when it has none. */
export function readIgnoreLayer(folder: string, hasGitFolder: boolean): IgnoreLayer | undefined {
  const texts = [hasGitFolder ? readText(join(folder, ".git", "info", "exclude")) : ""];
  for (const name of IGNORE_FILES) texts.push(readText(join(folder, name)));
  const lines = texts.join("\n").split(/\r?\n/);
  if (!lines.some((line) => line.trim() !== "" && !line.startsWith("#"))) return undefined;
  return { base: folder, matcher: ignore({ allowRelativePaths: true }).add(lines) };
}

function folderPrefixes(relativeRoot: string): string[] {
  const segments = relativeRoot.split(sep).filter(Boolean);
  return segments.map((_, index) => `${segments.slice(0, index + 1).join("/")}/`);
}

/**
 * Layers from the folders above `root`, outermost first. ripgrep never ignores the folder it was
 * asked to list, so a pattern that matches `root` or a folder on the way to it is left out.
 */
export function ancestorLayers(root: string): IgnoreLayer[] {
  const layers: IgnoreLayer[] = [];
  for (
    let folder = dirname(root), previous = root;
    folder !== previous;
    previous = folder, folder = dirname(folder)
  ) {
    const prefixes = folderPrefixes(relative(folder, root));
    const texts = [readText(join(folder, ".git", "info", "exclude"))];
    for (const name of IGNORE_FILES) texts.push(readText(join(folder, name)));
    const lines = texts
      .join("\n")
      .split(/\r?\n/)
      .filter((line) => {
        if (line.trim() === "" || line.startsWith("#")) return false;
        const single = ignore({ allowRelativePaths: true }).add(line);
        return !prefixes.some((prefix) => single.ignores(prefix));
      });
    if (lines.length > 0)
      layers.unshift({ base: folder, matcher: ignore({ allowRelativePaths: true }).add(lines) });
  }
  return layers;
}

/** Ignored by the innermost layer with an opinion (an ignore or a `!` re-include). */
export function isIgnored(
  layers: readonly IgnoreLayer[],
  absolutePath: string,
  isDirectory: boolean,
): boolean {
  for (let index = layers.length - 1; index >= 0; index--) {
    const layer = layers[index]!;
    const path = relative(layer.base, absolutePath).split(sep).join("/");
    if (!path || path.startsWith("..")) continue;
    const result = layer.matcher.test(isDirectory ? `${path}/` : path);
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}
