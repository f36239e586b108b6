// What the read-only test says of one command, and the helpers that find the paths in its arguments:
// shared by the classifier (readOnly.ts) and the programs with a language of their own (readOnlyPrograms.ts).
import type { Word } from "./grammar/words.ts";

export interface PathUse {
  value: string;
  /** Index of the argv word that carries it (its quoting, globs and tilde), when known. */
  index?: number;
  access: "read" | "write" | "cd";
  /** Relative to the folder git starts in (after its -C options), not the shell's. */
  fromGitStart?: boolean;
  /** A folder read whole, with everything below it (grep -r, rg, cp -r). */
  recursive?: boolean;
  /** Every file below is opened by name (find -exec cat {}, find | xargs wc): the links among them are followed. */
  follows?: FollowedLinks;
  /** The word that carries the value, when it is not one of this command's own (xargs fed by find). */
  word?: Word;
  /** A file written through an option or a script (sort -o, git --output, sed w): never covered by an allow rule. */
  output?: boolean;
  /**
   * A destination that, when it is a folder, receives each of these sources under its own name (cp, mv):
   * what is written is the folder's entry of that name, and for a recursive copy everything below it.
   */
  into?: {
    sources: Array<{ value: string; index?: number }>;
    recursive: boolean;
    noTargetDirectory: boolean;
    /** cp --parents: a source lands under its whole relative path, not its name. */
    parents: boolean;
  };
}

export interface FollowedLinks {
  /** Which links are opened, by name (find -name x prints only links named like x); undefined: any. */
  linkName?: (name: string) => boolean;
  /** No link is opened (find -type f). */
  noLinks: boolean;
  /** Names reach the command split at blanks and unquoted (xargs without -0). */
  splitNames: boolean;
}

export interface Classification {
  kind: "read-only" | "file-write" | "other";
  /** Why it is not read-only. */
  reason: string;
  paths: PathUse[];
  /** git may print any file of the repository it uses (show, diff, grep, log -p...). */
  readsRepository?: boolean;
}

export const other = (reason: string, paths: PathUse[] = []): Classification => ({
  kind: "other",
  reason,
  paths,
});

/** Index of the n-th positional in argv (argv[0] is the command). */
export function positionalUses(
  argv: readonly string[],
  indexes: readonly number[],
  access: PathUse["access"],
  from = 0,
): PathUse[] {
  return indexes.slice(from).map((index) => ({ value: argv[index + 1] as string, index: index + 1, access }));
}

/** The word carrying a value: the word itself, or an option word ending in `=value`. */
export function valueIndex(argv: readonly string[], value: string): number | undefined {
  const index = argv.lastIndexOf(value);
  if (index > 0) return index;
  for (let i = argv.length - 1; i > 0; i--) if ((argv[i] as string).endsWith(`=${value}`)) return i;
  return undefined;
}

export function indexOf(argv: readonly string[], value: string): { index?: number } {
  const index = valueIndex(argv, value);
  return index === undefined ? {} : { index };
}

export function optionPaths(
  argv: readonly string[],
  parse: { options: Array<{ name: string; value?: string }> },
  table: Readonly<Record<string, "read" | "write">>,
): PathUse[] {
  const uses: PathUse[] = [];
  for (const option of parse.options) {
    const access = table[option.name];
    if (access && option.value !== undefined) {
      const index = valueIndex(argv, option.value);
      uses.push({ value: option.value, ...(index === undefined ? {} : { index }), access });
    }
  }
  return uses;
}

/** Every non-option word, as written paths: used when a write command's options are not understood. */
export function lenientWritePaths(argv: readonly string[]): PathUse[] {
  const uses: PathUse[] = [];
  let options = true;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (options && arg === "--") {
      options = false;
      continue;
    }
    if (options && arg.startsWith("-") && arg !== "-") {
      const eq = arg.indexOf("=");
      if (eq !== -1) uses.push({ value: arg.slice(eq + 1), index: i, access: "write" });
      continue;
    }
    const eq = arg.indexOf("=");
    if (/^(of|if)=/.test(arg)) uses.push({ value: arg.slice(eq + 1), index: i, access: "write" });
    else uses.push({ value: arg, index: i, access: "write" });
  }
  return uses;
}
