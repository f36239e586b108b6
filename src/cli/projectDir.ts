// The project folder a command works in: --cwd, or the current folder.
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { CliError } from "./exitCodes.ts";

/** --cwd must name an existing folder: a typo would otherwise load no settings and ask about everything. */
export function projectDirFrom(flags: { cwd?: string | undefined }, startedIn: string): string {
  const dir = resolve(startedIn, flags.cwd ?? ".");
  if (flags.cwd !== undefined && !statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    throw new CliError(`--cwd ${flags.cwd}: no such folder. Give the project folder to work in.`);
  return dir;
}
