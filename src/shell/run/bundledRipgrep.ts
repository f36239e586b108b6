// `rg` in the Bash tool's shell: prompts and hooks tell models to use it, so when the system has none,
// the folder of the rg binary shipped in @vscode/ripgrep goes at the end of the command's PATH (a
// system rg, earlier on PATH, still wins). That folder holds the rg binary and nothing else.
import { accessSync, constants } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";

const requireLazily = createRequire(import.meta.url);

export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

let bundledPath: string | null | undefined;

/** The rg binary shipped in @vscode/ripgrep, or undefined when its platform package is not installed. */
export function bundledRipgrepPath(): string | undefined {
  if (bundledPath === undefined) {
    try {
      const { rgPath } = requireLazily("@vscode/ripgrep") as { rgPath: string };
      bundledPath = isExecutable(rgPath) ? rgPath : null;
    } catch {
      // The package throws when its per-platform binary package is not installed.
      bundledPath = null;
    }
  }
  return bundledPath ?? undefined;
}

/** The folder holding the bundled rg, or undefined. */
export function bundledRipgrepDir(): string | undefined {
  const path = bundledRipgrepPath();
  return path === undefined ? undefined : dirname(path);
}

/** Whether some folder of this PATH holds an executable `rg`. */
export function pathHasRipgrep(pathValue: string | undefined): boolean {
  return (pathValue ?? "").split(delimiter).some((dir) => dir !== "" && isExecutable(join(dir, "rg")));
}

// One answer per PATH value: commands of a session share their PATH, and the check reads the disk.
const answers = new Map<string, string>();

/** PATH for a shell command: unchanged when it finds an rg, else with the bundled rg's folder appended. */
export function pathWithRipgrep(pathValue: string | undefined): string | undefined {
  const key = pathValue ?? "";
  let result = answers.get(key);
  if (result === undefined) {
    const dir = bundledRipgrepDir();
    result = dir && !pathHasRipgrep(key) ? [key, dir].filter(Boolean).join(delimiter) : key;
    if (answers.size > 64) answers.clear();
    answers.set(key, result);
  }
  return result === "" ? pathValue : result;
}
