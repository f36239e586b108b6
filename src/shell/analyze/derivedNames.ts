// Files a command writes under names made from its operands rather than given: a compressor writes
// `x.gz` beside `x` (`gzip -S rc .bash` writes .bashrc), a decompressor `x` from `x.gz` (and, told
// to, the name stored in the archive: `gunzip -N`), a remote copy `dest/name` (or, recursive, any name
// below dest: `scp -r x/. .`). What is known is named; what is not is unknown.
import { words } from "./options.ts";

export type DerivedTargets =
  /** The files written, as paths (relative ones to the shell's folder); `index`: the argv word they derive from. */
  | { kind: "named"; paths: Array<{ value: string; index: number }> }
  /** Everything below these folders may be written. */
  | { kind: "below"; folders: Array<{ value: string; index: number }> }
  /** A copy of local sources into a destination, judged as cp's (`named`: files the remote sources land as). */
  | {
      kind: "copy";
      destination: { value: string; index: number };
      sources: Array<{ value: string; index: number }>;
      recursive: boolean;
      named: Array<{ value: string; index: number }>;
    }
  | { kind: "unknown"; reason: string };

interface Codec {
  /** The suffix it adds when compressing. */
  suffix: string;
  /** Suffixes it strips when decompressing, and what each becomes (`.tgz` -> `.tar`). */
  strips: Readonly<Record<string, string>>;
  /** Decompressing under the name stored in the archive (`gzip -N`). */
  storedName?: boolean;
}

const GZIP: Codec = {
  suffix: ".gz",
  strips: { ".gz": "", "-gz": "", ".z": "", "-z": "", _z: "", ".Z": "", ".tgz": ".tar", ".taz": ".tar" },
  storedName: true,
};
const BZIP2: Codec = { suffix: ".bz2", strips: { ".bz2": "", ".bz": "", ".tbz2": ".tar", ".tbz": ".tar" } };
const XZ: Codec = { suffix: ".xz", strips: { ".xz": "", ".txz": ".tar", ".lzma": "", ".tlz": ".tar" } };
const ZSTD: Codec = { suffix: ".zst", strips: { ".zst": "", ".tzst": ".tar" } };

/** Compressors by name, and whether the name itself decompresses (gunzip). */
const CODECS: Readonly<Record<string, { codec: Codec; decompresses: boolean }>> = {
  gzip: { codec: GZIP, decompresses: false },
  pigz: { codec: GZIP, decompresses: false },
  gunzip: { codec: GZIP, decompresses: true },
  unpigz: { codec: GZIP, decompresses: true },
  bzip2: { codec: BZIP2, decompresses: false },
  pbzip2: { codec: BZIP2, decompresses: false },
  lbzip2: { codec: BZIP2, decompresses: false },
  bunzip2: { codec: BZIP2, decompresses: true },
  xz: { codec: XZ, decompresses: false },
  unxz: { codec: XZ, decompresses: true },
  lzma: { codec: { ...XZ, suffix: ".lzma" }, decompresses: false },
  unlzma: { codec: XZ, decompresses: true },
  zstd: { codec: ZSTD, decompresses: false },
  unzstd: { codec: ZSTD, decompresses: true },
  lz4: { codec: { suffix: ".lz4", strips: { ".lz4": "" } }, decompresses: false },
  unlz4: { codec: { suffix: ".lz4", strips: { ".lz4": "" } }, decompresses: true },
  brotli: { codec: { suffix: ".br", strips: { ".br": "" } }, decompresses: false },
  lzip: { codec: { suffix: ".lz", strips: { ".lz": "", ".tlz": ".tar" } }, decompresses: false },
  compress: { codec: { suffix: ".Z", strips: { ".Z": "" } }, decompresses: false },
  uncompress: { codec: { suffix: ".Z", strips: { ".Z": "" } }, decompresses: true },
};

/** Short options of these tools that take a value (zstd -o, lz4 -B...; gzip -S). */
const VALUED_SHORT = "SoBTDMbq";
const VALUED_LONG =
  /^--(suffix|output|format|threads|memory|memlimit|block-size|patch-from|filelist|output-dir-flat|output-dir-mirror)$/;

interface CodecCall {
  decompress: boolean;
  toStdout: boolean;
  storedName: boolean;
  recursive: boolean;
  /** Writes to a file an option names (zstd -o): the table of options judges it. */
  named: boolean;
  suffix?: string;
  operands: Array<{ value: string; index: number }>;
}

function readCodecCall(args: readonly string[], decompresses: boolean): CodecCall {
  const call: CodecCall = {
    decompress: decompresses,
    toStdout: false,
    storedName: false,
    recursive: false,
    named: false,
    operands: [],
  };
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (options && arg === "--") {
      options = false;
      continue;
    }
    if (!options || !arg.startsWith("-") || arg === "-") {
      call.operands.push({ value: arg, index: i + 1 });
      continue;
    }
    if (arg.startsWith("--")) {
      const [name, value] = arg.split(/=(.*)/s) as [string, string | undefined];
      if (/^--(decompress|uncompress)$/.test(name)) call.decompress = true;
      if (/^--(stdout|to-stdout|test|list)$/.test(name)) call.toStdout = true;
      if (name === "--name") call.storedName = true;
      if (name === "--recursive") call.recursive = true;
      if (name === "--output") call.named = true;
      if (name === "--suffix") call.suffix = value ?? args[i + 1];
      if (value === undefined && VALUED_LONG.test(name)) i++;
      continue;
    }
    for (let at = 1; at < arg.length; at++) {
      const letter = arg[at] as string;
      if (letter === "d") call.decompress = true;
      if (letter === "c" || letter === "t" || letter === "l") call.toStdout = true;
      if (letter === "N") call.storedName = true;
      if (letter === "r") call.recursive = true;
      if (!VALUED_SHORT.includes(letter)) continue;
      const value = arg.slice(at + 1) || args[++i];
      if (letter === "S") call.suffix = value;
      if (letter === "o") call.named = true;
      break;
    }
  }
  return call;
}

/** What a compressor or decompressor writes. */
function codecTargets(name: string, args: readonly string[]): DerivedTargets | undefined {
  const known = CODECS[name];
  if (!known) return undefined;
  const call = readCodecCall(args, known.decompresses);
  if (call.toStdout || call.named || call.operands.length === 0) return undefined;
  if (call.recursive) return { kind: "below", folders: call.operands };
  if (call.decompress && call.storedName && known.codec.storedName)
    return { kind: "unknown", reason: `${name} -N writes files under the names the archives hold` };
  const paths = call.operands.flatMap(({ value, index }) => {
    if (!call.decompress) return [{ value: value + (call.suffix ?? known.codec.suffix), index }];
    const strips = call.suffix ? { [call.suffix]: "" } : known.codec.strips;
    const suffix = Object.keys(strips).find((candidate) => value.endsWith(candidate) && value !== candidate);
    // An operand without a suffix it knows is refused: nothing is written for it.
    return suffix === undefined ? [] : [{ value: value.slice(0, -suffix.length) + strips[suffix], index }];
  });
  return { kind: "named", paths };
}

const RECURSIVE_COPY = /^-[a-zA-Z]*[raR]|^--(recursive|archive|relative)$/;
const COPY_VALUED: Readonly<Record<string, string>> = { scp: "cDFiJloPSX", rsync: "eBfTM" };
const COPIERS = new Set(words("scp rsync"));

/** `host:path`, `s3://bucket/key`, `remote:path`: not a file here (a local path with a colon is written `./a:b`). */
function isRemote(value: string): boolean {
  return /^[^/]*:/.test(value) && !value.startsWith("./");
}

/**
 * scp and rsync: a local source is copied as cp copies it (into a folder under its own name, a
 * recursive copy with the protected entries it holds); a remote one under the name it has there, and
 * recursively under names only the remote side knows.
 */
function copyTargets(name: string, args: readonly string[]): DerivedTargets | undefined {
  if (!COPIERS.has(name)) return undefined;
  const valued = COPY_VALUED[name] ?? "";
  const operands: Array<{ value: string; index: number }> = [];
  let recursive = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") {
      operands.push(...args.slice(i + 1).map((value, at) => ({ value, index: i + 2 + at })));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      operands.push({ value: arg, index: i + 1 });
      continue;
    }
    if (RECURSIVE_COPY.test(arg)) recursive = true;
    const letters = arg.startsWith("--") ? "" : arg.slice(1);
    const at = [...letters].findIndex((letter) => valued.includes(letter));
    if (at !== -1 && at === letters.length - 1) i++;
  }
  const destination = operands.at(-1);
  const sources = operands.slice(0, -1);
  if (!destination || sources.length === 0 || isRemote(destination.value)) return undefined;
  const remote = sources.filter((source) => isRemote(source.value));
  const names = remote.map((source) => source.value.replace(/^[^/]*:/, "").replace(/\/+$/, ""));
  const unclear = names.some(
    (source) => source === "" || /[*?[\]{}]/.test(source) || /(^|\/)\.\.?$/.test(source),
  );
  if (remote.length > 0 && (recursive || unclear))
    return { kind: "unknown", reason: `${name} copies files under names the remote side holds` };
  const local = sources
    .filter((source) => !isRemote(source.value))
    // rsync copies what a folder written `x/` holds, as cp copies `x/.`.
    .map((source) =>
      name === "rsync" && /[^/]\/$/.test(source.value) ? { ...source, value: `${source.value}.` } : source,
    );
  const folder = /\/$/.test(destination.value) || destination.value === "." || destination.value === "..";
  const inside = names.map((source) => ({
    value: `${destination.value.replace(/\/+$/, "")}/${source.slice(source.lastIndexOf("/") + 1)}`,
    index: destination.index,
  }));
  const named = remote.length === 0 ? [] : folder || sources.length > 1 ? inside : [destination, ...inside];
  return { kind: "copy", destination, sources: local, recursive, named };
}

const CLOUD_COPY: Readonly<Record<string, readonly string[]>> = {
  aws: words("cp sync mv"),
  gsutil: words("cp rsync mv"),
  rclone: words("copy sync move copyto moveto bisync"),
};

/** aws s3 / gsutil / rclone downloads: names the bucket holds (and sync also removes what it lacks). */
function cloudTargets(name: string, args: readonly string[]): DerivedTargets | undefined {
  const verbs = CLOUD_COPY[name];
  const operands = args.filter((arg) => !arg.startsWith("-"));
  const at = operands.findIndex((operand) => verbs?.includes(operand));
  if (!verbs || at === -1) return undefined;
  const rest = operands.slice(at + 1);
  const destination = rest.at(-1);
  if (destination === undefined || isRemote(destination) || !rest.slice(0, -1).some(isRemote))
    return undefined;
  return {
    kind: "unknown",
    reason: `${name} ${operands[at]} writes files under names the remote side holds`,
  };
}

/** The files a command writes under names derived from its operands, or undefined when it writes none that way. */
export function derivedTargets(name: string, args: readonly string[]): DerivedTargets | undefined {
  return codecTargets(name, args) ?? copyTargets(name, args) ?? cloudTargets(name, args);
}
