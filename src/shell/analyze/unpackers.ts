// Programs that write files under names only known when they run: archives unpacked (tar x, unzip,
// 7z x, ar x, cpio -i, pax -r, python -m zipfile -e...), patches applied (patch, git apply, git am),
// and downloads named by a server (wget -r, curl -J). Each gives the reason it writes such names.
import { words } from "./options.ts";

/** `tar xf`, `tar -xzf`, `tar --extract`: members are written under names the archive holds. */
function tarExtracts(args: readonly string[]): boolean {
  return args.some((arg, i) => {
    if (arg.startsWith("--")) return /^--(ext|get)/.test(arg);
    const bundle = arg.startsWith("-") ? arg.slice(1) : i === 0 ? arg : "";
    return /^[A-Za-z]*x/.test(bundle);
  });
}

/** An archiver's key (`x`, `xv`, `-x`, `e`): the first word, with or without a dash. */
function keyExtracts(args: readonly string[], letters: RegExp): boolean {
  const key = args.find((arg) => arg !== "--");
  return key !== undefined && letters.test(key.replace(/^-/, ""));
}

const SEVEN_ZIP = new Set(words("7z 7za 7zr 7zz 7zzs unrar rar"));
const OPTION_MODES = new Set(words("unar lsar cabextract unsquashfs unlzx"));

/** Why `name args` unpacks under names an archive holds, or undefined. */
function archiveReason(name: string, args: readonly string[]): string | undefined {
  const options = args.filter((arg) => arg.startsWith("-"));
  const first = args.find((arg) => !arg.startsWith("-"));
  if (name === "tar" || name === "bsdtar" || name === "gtar" || name === "star")
    return tarExtracts(args) ? "extracts files under names the archive holds" : undefined;
  if (name === "unzip" || name === "bsdunzip")
    return options.some((option) => /^-[a-zA-Z]*[lvtZpc]/.test(option))
      ? undefined
      : "writes files under names the archive holds";
  if (SEVEN_ZIP.has(name))
    return first !== undefined && /^[xe]/.test(first)
      ? `${first} extracts files under names the archive holds`
      : undefined;
  if (name === "ar" || name === "jar")
    return keyExtracts(args, /^[a-zA-Z]*x/) || args.includes("--extract")
      ? "extracts files under names the archive holds"
      : undefined;
  if (name === "lha" || name === "lzh" || name === "arj")
    return keyExtracts(args, /^[xe]/) ? "extracts files under names the archive holds" : undefined;
  if (name === "cpio" || name === "bsdcpio")
    return options.some((option) => /^(-[a-zA-Z]*[ip]|--extract|--pass-through)/.test(option))
      ? "writes files under the names its input holds"
      : undefined;
  // pax reads (-r) or copies (-rw) the names an archive or its input holds.
  if (name === "pax")
    return options.some((option) => /^-[a-zA-Z]*r/.test(option))
      ? "writes files under the names its archive or input holds"
      : undefined;
  if (OPTION_MODES.has(name))
    return options.some((option) => /^-[a-zA-Z]*l/.test(option))
      ? undefined
      : "extracts files under names the archive holds";
  if (name === "dpkg" || name === "dpkg-deb")
    return options.some((option) =>
      /^(-[a-zA-Z]*[xXR]|--(extract|vextract|raw-extract|unpack|install))/.test(option),
    )
      ? "unpacks files under names the package holds"
      : undefined;
  return undefined;
}

/**
 * patch changes the files its patch names, unless it is given the file to change and the patch both
 * (`patch FILE PATCH`, or `-i PATCH FILE`: then only FILE). With one operand that operand is the file
 * and the patch comes from the input, which is not what such a command usually means: asked too.
 */
function patchReason(args: readonly string[]): string | undefined {
  if (args.some((arg) => /^--dry|^--check$|^-[a-zA-Z]*C$/.test(arg))) return undefined;
  if (args.some((arg) => /^-[a-zA-Z]*d|^--directory/.test(arg)))
    return "changes files relative to another folder (-d)";
  const operands = patchOperands(args);
  const fromFile = args.some((arg) => /^-[a-zA-Z]*i|^--input/.test(arg));
  if (operands.length >= 2 || (fromFile && operands.length === 1)) return undefined;
  return operands.length === 1
    ? "reads its patch from its input (its operand is the file it changes), so what it changes is not known"
    : "changes the files its patch names";
}

/** patch's operands (options that take a value skip it). */
function patchOperands(args: readonly string[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") return [...found, ...args.slice(i + 1)];
    if (!arg.startsWith("-") || arg === "-") found.push(arg);
    else if (/^-[a-zA-Z]*[pioBrDFYzVdgx]$/.test(arg) && !/^-[a-zA-Z]*p\d/.test(arg)) i++;
  }
  return found;
}

function gitReason(args: readonly string[]): string | undefined {
  const at = args.findIndex((arg) => !arg.startsWith("-"));
  const sub = args[at];
  const rest = args.slice(at + 1);
  if (sub === "am") return "changes the files its patches name";
  if (sub !== "apply") return undefined;
  const readOnly = rest.some((arg) => /^--(check|stat|numstat|summary|cached)$/.test(arg));
  return readOnly ? undefined : "changes the files its patch names";
}

/** `python -m zipfile -e`, `-m tarfile --extract`, `-m shutil`...: standard modules that unpack archives. */
function pythonModuleReason(name: string, args: readonly string[]): string | undefined {
  if (!/^(python|pypy)(\d+(\.\d+)*)?$/.test(name)) return undefined;
  const at = args.findIndex((arg) => arg === "-m" || (arg.startsWith("-m") && !arg.startsWith("--")));
  if (at === -1) return undefined;
  const module = args[at] === "-m" ? args[at + 1] : args[at]?.slice(2);
  const rest = args.slice(at + (args[at] === "-m" ? 2 : 1));
  if ((module === "zipfile" || module === "tarfile") && rest.some((arg) => /^(-e|--extract)$/.test(arg)))
    return `-m ${module} -e extracts files under names the archive holds`;
  return undefined;
}

/** wget and curl downloading under names a server or a list gives (wget -r, -i, --content-disposition; curl -J). */
function downloadReason(name: string, args: readonly string[]): string | undefined {
  if (name === "wget") {
    const named = args.some((arg) =>
      /^-[a-zA-Z]*[rmpi]|^--(recursive|mirror|page-requisites|input-file|content-disposition|trust-server-names)/.test(
        arg,
      ),
    );
    return named ? "saves files under names the server or its input list gives" : undefined;
  }
  if (name === "curl")
    return args.some((arg) => /^-[a-zA-Z0-9]*J|^--remote-header-name/.test(arg))
      ? "saves the file under the name the server gives"
      : undefined;
  return undefined;
}

/** Why a command writes files under names only known when it runs, or undefined. */
export function unpackReason(name: string, args: readonly string[]): string | undefined {
  const reason =
    archiveReason(name, args) ??
    (name === "patch" ? patchReason(args) : undefined) ??
    (name === "git" ? gitReason(args) : undefined) ??
    pythonModuleReason(name, args) ??
    downloadReason(name, args);
  return reason === undefined ? undefined : `${name} ${reason}`;
}

/** The files wget and curl -O save under the last part of each URL they fetch (`index.html` when empty). */
export function downloadNames(
  name: string,
  args: readonly string[],
): Array<{ value: string; index: number }> {
  const remoteName =
    name === "curl" && args.some((arg) => /^-[a-zA-Z0-9]*O/.test(arg) || /^--remote-name(-all)?$/.test(arg));
  const wgetDefault =
    name === "wget" && !args.some((arg) => /^-[a-zA-Z]*[Oo]|^--(output-document|spider)/.test(arg));
  if (!remoteName && !wgetDefault) return [];
  const found: Array<{ value: string; index: number }> = [];
  args.forEach((arg, i) => {
    const url = arg.match(/^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/[^?#]*)?/i);
    if (!url) return;
    const raw = (url[1] ?? "/").slice((url[1] ?? "/").lastIndexOf("/") + 1);
    for (const last of new Set([raw, decodeSafely(raw)]))
      found.push({ value: last === "" ? "index.html" : last, index: i + 1 });
  });
  return found;
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
