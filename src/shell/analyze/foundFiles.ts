// The files find (or fd) names, as another command opens them: `find . -exec cat {} \;` and
// `find . -name '*.ts' | xargs wc -l` read every file below find's start folders, following the links
// among them (cat opens a link's target), and xargs splits and unquotes names unless given -0. So a
// read-only command fed that way is read-only, and what it reads is judged whole: the start folders
// (rules), the links below them that find would print (where they lead), and names xargs would split.

import { segmentRegex } from "./expand.ts";
import type { Word } from "./grammar/words.ts";
import { hasOption, parseOptions, words } from "./options.ts";
import type { Classification } from "./readOnly.ts";
import { FD_SPEC } from "./readOnlyPrograms.ts";

export interface FoundFiles {
  /** The command that names the files (find, fd). */
  finder: string;
  /** It runs commands on them itself (find -exec cat {}): what it prints is not only names. */
  opens?: boolean;
  /** The folders it starts in, with their words (globs, `~`...). */
  folders: Array<{ value: string; word?: Word }>;
  /** Which links it prints by name (its -name tests), or undefined for any. */
  linkName?: (name: string) => boolean;
  /** It prints no links at all (-type f), and follows none. */
  noLinks: boolean;
  /** The names reach the command split at blanks and unquoted (xargs without -0). */
  splitNames: boolean;
}

const FIND_TESTS_WITH_VALUE = new Set(
  words(
    "-name -iname -path -ipath -wholename -iwholename -regex -iregex -regextype -type -xtype -size",
    "-newer -anewer -cnewer -mtime -mmin -atime -amin -ctime -cmin -maxdepth -mindepth -perm -user",
    "-group -uid -gid -links -inum -samefile -lname -ilname -used -fstype -newermt -newerct -newerat",
  ),
);
const FIND_PLAIN = new Set(
  words(
    "-print -print0 -prune -empty -depth -a -and -nouser -nogroup -readable -writable -executable",
    "-true -false -quit -xdev -mount -noleaf -daystart -ignore_readdir_race -noignore_readdir_race",
  ),
);
/** Tests that make an expression more than a conjunction: then any link may be printed. */
const FIND_BRANCHES = new Set(words("-o -or , ! -not ( )"));
const PER_FILE = new Set(words("-exec -execdir -ok -okdir"));

/** `{}` in a per-file command, and the word xargs appends: a file find names. */
export const FOUND = "\u0000found-file";

/**
 * Whether a command given any file find names (FOUND, in place of `{}` or appended) only reads:
 * read-only however many paths it is given, each of them read.
 */
export function readsEachFound(
  argv: readonly string[],
  classify: (argv: readonly string[]) => Classification | undefined,
): boolean {
  const classification = classify(argv);
  if (classification?.kind !== "read-only") return false;
  return classification.paths.every((use) => !use.value.includes(FOUND) || use.access === "read");
}

/**
 * What `find ARGS` names, when its output is plain file names (tests, -print, -print0 and read-only
 * per-file commands only): its start folders and which links it prints. Undefined otherwise.
 */
export function findNames(
  args: readonly string[],
  classify: (argv: readonly string[]) => Classification | undefined,
  wordAt: (index: number) => Word | undefined = () => undefined,
): Omit<FoundFiles, "splitNames"> | undefined {
  let i = 0;
  let follows = false;
  for (; i < args.length && /^-[HLP]$|^-O\d$/.test(args[i] as string); i++)
    if (args[i] !== "-P") follows = true;
  const folders: FoundFiles["folders"] = [];
  for (; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg.startsWith("-") || arg === "!" || arg === "(") break;
    const word = wordAt(i + 1);
    folders.push({ value: arg, ...(word ? { word } : {}) });
  }
  const names: string[] = [];
  const types: string[] = [];
  let branches = false;
  let opens = false;
  for (; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "-follow") follows = true;
    if (FIND_BRANCHES.has(arg)) branches = true;
    if (FIND_PLAIN.has(arg) || FIND_BRANCHES.has(arg) || arg === "-follow") continue;
    if (PER_FILE.has(arg)) {
      const end = args.findIndex((word, j) => j > i && (word === ";" || word === "+"));
      if (end === -1) return undefined;
      const inner = args
        .slice(i + 1, end)
        .map((word) => (word === "{}" ? FOUND : word.replaceAll("{}", FOUND)));
      if (inner.length === 0 || !readsEachFound(inner, classify)) return undefined;
      opens = true;
      i = end;
      continue;
    }
    if (!FIND_TESTS_WITH_VALUE.has(arg)) return undefined;
    const value = args[++i];
    if (value === undefined) return undefined;
    if (arg === "-name" || arg === "-iname") names.push(arg === "-iname" ? `(?i)${value}` : value);
    if (arg === "-type") types.push(value);
  }
  const conjunction = !branches && !follows;
  const noLinks = conjunction && types.length > 0 && types.every((type) => !type.includes("l"));
  const filters = conjunction && names.length > 0 ? names.map(nameTest) : undefined;
  return {
    finder: "find",
    opens,
    folders: folders.length > 0 ? folders : [{ value: "." }],
    noLinks,
    ...(filters ? { linkName: (name: string) => filters.every((test) => test(name)) } : {}),
  };
}

/** find's -name (and -iname, marked `(?i)`) as a test of a file name. */
function nameTest(pattern: string): (name: string) => boolean {
  const insensitive = pattern.startsWith("(?i)");
  const regex = segmentRegex(insensitive ? pattern.slice(4).toLowerCase() : pattern);
  return (name) => regex.test(insensitive ? name.toLowerCase() : name);
}

/** What `fd ARGS` names, when its output is plain paths (no -x/-X/-l/--format/-L). Undefined otherwise. */
export function fdNames(
  args: readonly string[],
  wordAt: (index: number) => Word | undefined = () => undefined,
): Omit<FoundFiles, "splitNames"> | undefined {
  const parse = parseOptions(args, FD_SPEC);
  if (!parse.ok || hasOption(parse, "-l", "--list-details", "--format", "-a", "--absolute-path"))
    return undefined;
  const roots = parse.positionalIndexes.slice(1).map((at) => {
    const word = wordAt(at + 1);
    return { value: args[at] as string, ...(word ? { word } : {}) };
  });
  return { finder: "fd", folders: roots.length > 0 ? roots : [{ value: "." }], noLinks: false };
}
