// Files a command changes without naming them: the members an archive or a patch names (known only
// when it runs, unpackers.ts), files named from its operands (gzip, scp: derivedNames.ts), the files
// xargs reads from its input, everything below the folders find or fd runs a changing command on, and
// everything below a folder chmod -R changes.

import { WRITE_COMMANDS } from "./commandSpecs.ts";
import type { CommandView } from "./commandView.ts";
import { type DerivedTargets, derivedTargets } from "./derivedNames.ts";
import { fedReads, replacement } from "./fedNames.ts";
import { words } from "./options.ts";
import { classifyCommand } from "./readOnly.ts";
import { downloadNames, unpackReason } from "./unpackers.ts";

export type HiddenTargets =
  /** Files whose names are not known before the command runs. */
  | { kind: "unknown"; access: "read" | "write"; reason: string }
  /** Everything below these folders is changed (`index`: the argv word naming it). */
  | { kind: "below"; folders: Array<{ value: string; index?: number }> }
  /** Files written under names made from an argv word (`x.gz` from `x`): `index` is that word. */
  | { kind: "named"; paths: Array<{ value: string; index: number }> }
  /** Local sources copied into a destination, as cp copies them (scp, rsync). */
  | Extract<DerivedTargets, { kind: "copy" }>;

const RECURSIVE_CHANGERS = new Set(words("chmod chown chgrp setfacl chattr chcon"));
const FIND_RUNNERS = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
/** Commands given names by xargs that only print them (their targets are not files). */
const PRINTERS = new Set(words("echo printf basename dirname true"));

/** What one command changes (or, fed by xargs, reads) beyond the paths it names. */
export function hiddenTargets(view: CommandView): HiddenTargets[] {
  const [name = "", ...args] = view.argv;
  const found: HiddenTargets[] = [];
  // Words xargs reads are the files a file command changes or reads (a program it does not know is
  // judged as with any argument only known at run time); xargs options it does not know hide how.
  if (view.unwrapProblem?.check === "xargs-target" && name === "xargs")
    found.push({
      kind: "unknown",
      access: "write",
      reason: `${view.unwrapProblem.reason}: what it runs is not known`,
    });
  else if (view.inputArgs && !PRINTERS.has(name) && !fedReads(view)) {
    const access = fedWordAccess(view.argv, replacement(view.xargsOptions ?? []));
    if (access)
      found.push({ kind: "unknown", access, reason: `xargs gives ${name} file names read from its input` });
  }
  const listed = readsNamedInList(name, args);
  if (listed) found.push({ kind: "unknown", access: "read", reason: listed });
  const unpacked = unpackReason(name, args);
  if (unpacked) found.push({ kind: "unknown", access: "write", reason: unpacked });
  const derived = derivedTargets(name, args);
  if (derived?.kind === "unknown") found.push({ kind: "unknown", access: "write", reason: derived.reason });
  else if (derived?.kind === "copy") {
    found.push(derived);
    if (derived.named.length > 0) found.push({ kind: "named", paths: derived.named });
  } else if (derived) found.push(derived);
  const downloads = downloadNames(name, args);
  if (downloads.length > 0) found.push({ kind: "named", paths: downloads });
  if (RECURSIVE_CHANGERS.has(name) && args.some((arg) => /^-[a-zA-Z]*R|^--recursive$/.test(arg)))
    found.push({ kind: "below", folders: operands(args) });
  if (name === "find" && changesFound(args)) found.push({ kind: "below", folders: findStarts(args) });
  if ((name === "fd" || name === "fdfind") && fdChanges(args))
    found.push({ kind: "below", folders: fdRoots(args) });
  if (name === "parallel" && !PRINTERS.has(parallelCommand(args)))
    found.push({
      kind: "unknown",
      access: "write",
      reason: "parallel runs its command on names from its input or arguments",
    });
  return found;
}

const FED = "\u0000fed-by-xargs";

/** How a command uses the words xargs gives it (appended, or put where `-I R` says): as files it writes, reads, or neither known. */
function fedWordAccess(argv: readonly string[], replace?: string): "read" | "write" | undefined {
  const fedArgv =
    replace === undefined || replace === ""
      ? [...argv, FED]
      : argv.map((word, i) => (i > 0 && word.includes(replace) ? word.split(replace).join(FED) : word));
  const fed = classifyCommand(fedArgv);
  const uses = fed.paths.filter((path) => path.value.includes(FED));
  if (uses.some((use) => use.access === "write")) return "write";
  // A copy of a fed name into a folder writes it there under that name (`cp {} backup/`).
  if (uses.length > 0 && (fed.kind === "file-write" || fed.paths.some((use) => use.access === "write")))
    return "write";
  if (uses.some((use) => use.access === "read")) return "read";
  if (fed.kind === "file-write" || WRITE_COMMANDS.has(argv[0] ?? "")) return "write";
  if (fed.kind === "read-only" && !fedArgv.some((word) => word.includes(FED))) return undefined;
  return fed.kind === "read-only" ? "read" : undefined;
}

/** Files read whose names come from a list (a file or stdin): sort --files0-from, tar -T, zip -@, cpio -o. */
function readsNamedInList(name: string, args: readonly string[]): string | undefined {
  const option = args.find(
    (arg) =>
      /^--files0-from|^--files-from|^--pathspec-from-file|^--names-stdin$/.test(arg) ||
      ((name === "tar" || name === "bsdtar") && /^-[a-zA-Z]*T/.test(arg)) ||
      (name === "zip" && arg === "-@") ||
      (name === "cpio" && /^-[a-zA-Z]*o|^--create$/.test(arg)) ||
      (name === "parallel" && arg === "::::"),
  );
  return option === undefined ? undefined : `${name} ${option.split("=")[0]} reads files named in a list`;
}

function operands(args: readonly string[]): Array<{ value: string; index: number }> {
  return args.flatMap((value, i) => (value.startsWith("-") ? [] : [{ value, index: i + 1 }]));
}

/** find's start folders (the words before its expression); none means the current folder. */
function findStarts(args: readonly string[]): Array<{ value: string; index?: number }> {
  const starts: Array<{ value: string; index?: number }> = [];
  let i = 0;
  while (i < args.length && /^-[HPLOD]/.test(args[i] as string)) i++;
  for (; i < args.length; i++) {
    const value = args[i] as string;
    if (value.startsWith("-") || value === "!" || value === "(") break;
    starts.push({ value, index: i + 1 });
  }
  return starts.length > 0 ? starts : [{ value: "." }];
}

/** fd -x/-X/--exec/--exec-batch with a command that is not read-only changes the files found. */
function fdChanges(args: readonly string[]): boolean {
  const at = args.findIndex((arg) => /^(-x|-X|--exec|--exec-batch)$/.test(arg));
  if (at === -1) return args.some((arg) => /^--exec(-batch)?=/.test(arg) || /^-[a-zA-Z]*[xX]./.test(arg));
  const inner = args.slice(at + 1).filter((arg) => arg !== ";");
  return inner.length === 0 || classifyCommand(inner).kind !== "read-only";
}

/** fd's search folders: the operands after its pattern (none means the current folder). */
function fdRoots(args: readonly string[]): Array<{ value: string; index?: number }> {
  const end = args.findIndex((arg) => /^(-x|-X|--exec|--exec-batch)/.test(arg));
  const own = end === -1 ? args : args.slice(0, end);
  const roots = own.flatMap((value, i) => (value.startsWith("-") ? [] : [{ value, index: i + 1 }])).slice(1);
  return roots.length > 0 ? roots : [{ value: "." }];
}

/** The command GNU parallel runs (its first word after its own options). */
function parallelCommand(args: readonly string[]): string {
  return args.find((arg) => !arg.startsWith("-") && arg !== ":::" && arg !== "::::") ?? "";
}

/** find -exec/-execdir/-ok with a command that is not read-only changes the files found. */
function changesFound(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    if (!FIND_RUNNERS.has(args[i] as string)) continue;
    const end = args.findIndex((arg, j) => j > i && (arg === ";" || arg === "+"));
    const inner = args.slice(i + 1, end === -1 ? undefined : end);
    if (inner.length === 0 || classifyCommand(inner).kind !== "read-only") return true;
  }
  return false;
}
