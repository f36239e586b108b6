// Files a command changes without naming them: the members an archive or a patch names (known only
// when it runs), the files xargs reads from its input, everything below the folders find runs a
// changing command on, and everything below a folder chmod -R changes.

import { WRITE_COMMANDS } from "./commandSpecs.ts";
import type { CommandView } from "./commandView.ts";
import { words } from "./options.ts";
import { classifyCommand } from "./readOnly.ts";

export type HiddenTargets =
  /** Files whose names are not known before the command runs. */
  | { kind: "unknown"; access: "read" | "write"; reason: string }
  /** Everything below these folders is changed (`index`: the argv word naming it). */
  | { kind: "below"; folders: Array<{ value: string; index?: number }> };

const RECURSIVE_CHANGERS = new Set(words("chmod chown chgrp setfacl chattr chcon"));
const FIND_RUNNERS = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
/** Commands given names by xargs that only print them (their targets are not files). */
const PRINTERS = new Set(words("echo printf basename dirname true"));

/** `tar xf`, `tar -xzf`, `tar --extract`: members are written under names the archive holds. */
function tarExtracts(args: readonly string[]): boolean {
  return args.some((arg, i) => {
    if (arg.startsWith("--")) return /^--(ext|get)/.test(arg);
    const bundle = arg.startsWith("-") ? arg.slice(1) : i === 0 ? arg : "";
    return /^[A-Za-z]*x/.test(bundle);
  });
}

function unpacks(name: string, args: readonly string[]): string | undefined {
  const options = args.filter((arg) => arg.startsWith("-"));
  const first = args.find((arg) => !arg.startsWith("-"));
  switch (name) {
    case "tar":
    case "bsdtar":
    case "gtar":
      return tarExtracts(args) ? `${name} extracts files under names the archive holds` : undefined;
    case "unzip":
      return options.some((option) => /^-[a-zA-Z]*[lvtZpc]/.test(option))
        ? undefined
        : "unzip writes files under names the archive holds";
    case "7z":
    case "7za":
    case "7zr":
    case "unrar":
    case "ar":
    case "jar":
      return first !== undefined && /^[xe]/.test(first)
        ? `${name} ${first} extracts files under names the archive holds`
        : undefined;
    case "cpio":
      return options.some((option) => /^(-[a-zA-Z]*i|--extract)/.test(option))
        ? "cpio -i writes files under names the archive holds"
        : undefined;
    case "patch":
      return options.some((option) => /^--dry/.test(option)) || first !== undefined
        ? undefined
        : "patch changes the files its patch names";
  }
  return undefined;
}

function gitChanges(args: readonly string[]): string | undefined {
  const at = args.findIndex((arg) => !arg.startsWith("-"));
  const sub = args[at];
  const rest = args.slice(at + 1);
  if (sub === "am") return "git am changes the files its patches name";
  if (sub !== "apply") return undefined;
  const readOnly = rest.some((arg) => /^--(check|stat|numstat|summary|cached)$/.test(arg));
  return readOnly ? undefined : "git apply changes the files its patch names";
}

/** What one command changes (or, fed by xargs, reads) beyond the paths it names. */
export function hiddenTargets(view: CommandView): HiddenTargets[] {
  const [name = "", ...args] = view.argv;
  const found: HiddenTargets[] = [];
  // Words xargs reads are the files a file command changes or reads (a program it does not know is
  // judged as with any argument only known at run time).
  if (view.inputArgs && !PRINTERS.has(name)) {
    const access = fedWordAccess(view.argv);
    if (access)
      found.push({ kind: "unknown", access, reason: `xargs gives ${name} file names read from its input` });
  }
  const listed = readsNamedInList(name, args);
  if (listed) found.push({ kind: "unknown", access: "read", reason: listed });
  const unpacked = name === "git" ? gitChanges(args) : unpacks(name, args);
  if (unpacked) found.push({ kind: "unknown", access: "write", reason: unpacked });
  if (RECURSIVE_CHANGERS.has(name) && args.some((arg) => /^-[a-zA-Z]*R|^--recursive$/.test(arg)))
    found.push({ kind: "below", folders: operands(args) });
  // rsync copies into its last operand under names its sources hold.
  if (name === "rsync" && args.some((arg) => /^-[a-zA-Z]*[ar]|^--(archive|recursive)$/.test(arg)))
    found.push({ kind: "below", folders: operands(args).slice(-1) });
  if (name === "find" && changesFound(args)) found.push({ kind: "below", folders: findStarts(args) });
  return found;
}

const FED = "\u0000fed-by-xargs";

/** How a command uses a word xargs appends: as a file it writes (sed -i, rm), reads (cat), or neither known. */
function fedWordAccess(argv: readonly string[]): "read" | "write" | undefined {
  const fed = classifyCommand([...argv, FED]);
  const use = fed.paths.find((path) => path.value === FED);
  if (use?.access === "read" || use?.access === "write") return use.access;
  if (fed.kind === "file-write" || WRITE_COMMANDS.has(argv[0] ?? "")) return "write";
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
