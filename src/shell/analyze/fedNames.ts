// The names xargs gives a command, when the command feeding it names files: `find . -name '*.ts' |
// xargs wc -l` (with line filters such as grep -v or head between) gives wc files below find's start
// folders. A command that reads each file it is given then stays read-only, reading those folders
// whole (the links below them followed, the names split at blanks unless -0).

import type { PathUse } from "./classification.ts";
import type { CommandView } from "./commandView.ts";
import { FOUND, type FoundFiles, fdNames, findNames, readsEachFound } from "./foundFiles.ts";
import { words } from "./options.ts";
import { classifyCommand } from "./readOnly.ts";

/** Commands that pass lines of their input through (some of them, unchanged): the names stay find's. */
const LINE_FILTERS = new Set(words("grep egrep fgrep head tail sort uniq cat tac"));

function passesLines(view: CommandView): boolean {
  const name = view.argv[0] ?? "";
  if (!LINE_FILTERS.has(name) || view.redirects.length > 0) return false;
  // grep -o prints pieces of lines; a file operand prints the file instead of the input.
  if (name.endsWith("grep") && view.argv.some((arg) => /^-[a-zA-Z]*o|^--only/.test(arg))) return false;
  const classification = classifyCommand(view.argv);
  return classification.kind === "read-only" && classification.paths.length === 0;
}

/** What the pipeline before a command names, when it is find or fd (through line filters); `before`: nearest first. */
export function namesFedBy(view: CommandView, before: readonly CommandView[]): FoundFiles | undefined {
  if (!view.inputArgs) return undefined;
  const producer = before.find((candidate) => !passesLines(candidate));
  if (!producer || producer.assignments.length > 0 || producer.redirects.length > 0) return undefined;
  const [name, ...args] = producer.argv;
  const wordAt = (index: number) => producer.words[index];
  const named =
    name === "find"
      ? findNames(args, classifyCommand, wordAt)
      : name === "fd" || name === "fdfind"
        ? fdNames(args, wordAt)
        : undefined;
  if (!named || named.opens) return undefined;
  const nul = (view.xargsOptions ?? []).some((option) => /^(-[a-zA-Z]*0|--null)$/.test(option));
  return { ...named, splitNames: !nul };
}

/** The string `-I R`, `-i[R]` or `--replace[=R]` puts each name in place of (undefined: names are appended). */
export function replacement(options: readonly string[]): string | undefined {
  for (let i = 0; i < options.length; i++) {
    const option = options[i] as string;
    if (option === "-I") return options[i + 1];
    if (option.startsWith("-I")) return option.slice(2);
    if (option === "-i" || option === "--replace") return "{}";
    if (option.startsWith("-i")) return option.slice(2);
    if (option.startsWith("--replace=")) return option.slice(10);
  }
  return undefined;
}

/** The command with the names xargs gives it in place (appended, or where `-I R` says). */
export function withFedNames(view: CommandView, name: string): string[] {
  const replace = replacement(view.xargsOptions ?? []);
  if (replace === undefined || replace === "") return [...view.argv, name];
  return view.argv.map((word, i) =>
    i > 0 && word.includes(replace) ? word.split(replace).join(name) : word,
  );
}

/** The reads of a command fed files by find: its start folders whole, or undefined when it does more than read them. */
export function fedReads(view: CommandView): PathUse[] | undefined {
  const fed = view.fedBy;
  if (!fed || !readsEachFound(withFedNames(view, FOUND), classifyCommand)) return undefined;
  const follows = {
    noLinks: fed.noLinks,
    splitNames: fed.splitNames,
    ...(fed.linkName ? { linkName: fed.linkName } : {}),
  };
  return fed.folders.map((folder) => ({
    value: folder.value,
    access: "read",
    recursive: true,
    follows,
    ...(folder.word ? { word: folder.word } : {}),
  }));
}
