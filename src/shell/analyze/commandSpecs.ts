// Per-command option allowlists. An option missing here makes the command "not read-only" (a person
// or a rule decides); the lists name only options that neither write, run programs nor follow links out.
import { type OptionSpec, words } from "./options.ts";

/** What the positional arguments are: files read, files written, or not paths at all. */
export type PositionalRole = "read" | "write" | "none" | "pattern-then-read";

export interface CommandSpec {
  options: OptionSpec;
  positionals: PositionalRole;
  /** Option values that are paths, and how they are used. */
  pathOptions?: Readonly<Record<string, "read" | "write">>;
  /** At most this many positionals (uniq's second operand is an output file). */
  maxPositionals?: number;
  /** A plain file-system command that acceptEdits allows inside the working directories. */
  fileWrite?: boolean;
  /** Any argument is accepted (echo). */
  anyArgs?: boolean;
  /** Options with which the folders among the read positionals are read whole (grep -r, cp -r). */
  recursiveOptions?: readonly string[];
}

const ro = (
  positionals: PositionalRole,
  options: OptionSpec,
  extra: Partial<CommandSpec> = {},
): CommandSpec => ({
  options,
  positionals,
  ...extra,
});

const CHECKSUM: CommandSpec = ro("read", {
  flags: "bctwz",
  long: words("--binary --check --tag --text --zero --quiet --status --strict --warn --ignore-missing"),
});

const GREP: CommandSpec = ro(
  "pattern-then-read",
  {
    flags: "EFGPiyvwxcLloqsbHhnTZzaIrUV",
    valued: "efmABCdD",
    numeric: true,
    long: words(
      "--extended-regexp --fixed-strings --basic-regexp --perl-regexp --regexp= --file=",
      "--ignore-case --no-ignore-case --word-regexp --line-regexp --null-data --no-messages",
      "--invert-match --max-count= --byte-offset --line-number --no-line-number --line-buffered",
      "--with-filename --no-filename --label= --only-matching --quiet --silent --binary-files=",
      "--text --directories= --devices= --recursive --include= --exclude= --exclude-dir=",
      "--files-without-match --files-with-matches --count --initial-tab --null",
      "--before-context= --after-context= --context= --color[=] --colour[=] --group-separator=",
      "--no-group-separator",
    ),
  },
  { pathOptions: { "-f": "read", "--file": "read" }, recursiveOptions: ["-r", "--recursive"] },
);

export const COMMAND_SPECS: Readonly<Record<string, CommandSpec>> = {
  ls: ro("read", {
    flags: "aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvwxX1Z",
    valued: "ITw",
    long: words(
      "--all --almost-all --author --escape --block-size= --ignore-backups --color[=]",
      "--colour[=] --directory --classify[=] --file-type --format= --full-time",
      "--group-directories-first --no-group --human-readable --si --dereference-command-line",
      "--hide= --hyperlink[=] --indicator-style= --inode --ignore= --kibibytes --dereference",
      "--literal --numeric-uid-gid --hide-control-chars --show-control-chars --quote-name",
      "--quoting-style= --reverse --recursive --size --sort= --time= --time-style= --tabsize=",
      "--width= --context --zero",
    ),
  }),
  cat: ro("read", {
    flags: "AbeEnstTuv",
    long: [
      "--show-all",
      "--number-nonblank",
      "--show-ends",
      "--number",
      "--squeeze-blank",
      "--show-tabs",
      "--show-nonprinting",
    ],
  }),
  head: ro("read", {
    flags: "qvz",
    valued: "nc",
    numeric: true,
    long: ["--lines=", "--bytes=", "--quiet", "--silent", "--verbose", "--zero-terminated"],
  }),
  tail: ro("read", {
    flags: "qvzfF",
    valued: "ncs",
    numeric: true,
    long: words(
      "--lines= --bytes= --quiet --silent --verbose --zero-terminated --follow[=] --retry",
      "--sleep-interval= --pid= --max-unchanged-stats=",
    ),
  }),
  wc: ro("read", {
    flags: "cmlwL",
    long: ["--bytes", "--chars", "--lines", "--words", "--max-line-length", "--total="],
  }),
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  echo: ro("none", {}, { anyArgs: true }),
  printf: ro("none", {}, { anyArgs: true }),
  true: ro("none", {}, { anyArgs: true }),
  false: ro("none", {}, { anyArgs: true }),
  ":": ro("none", {}, { anyArgs: true }),
  test: ro("none", {}, { anyArgs: true }),
  "[": ro("none", {}, { anyArgs: true }),
  pwd: ro("none", { flags: "LP" }, { maxPositionals: 0 }),
  whoami: ro("none", {}, { maxPositionals: 0 }),
  // The environment's variables, by name: printing is all it does.
  printenv: ro("none", { flags: "0", long: ["--null"] }),
  id: ro("none", { flags: "gGnruzZ", long: ["--group", "--groups", "--name", "--real", "--user", "--zero"] }),
  uname: ro(
    "none",
    {
      flags: "asnrvmpio",
      long: words(
        "--all --kernel-name --nodename --kernel-release --kernel-version --machine --processor",
        "--hardware-platform --operating-system",
      ),
    },
    { maxPositionals: 0 },
  ),
  hostname: ro(
    "none",
    { flags: "sfdiIA", long: ["--short", "--fqdn", "--domain", "--ip-address", "--all-ip-addresses"] },
    { maxPositionals: 0 },
  ),
  nproc: ro("none", { long: ["--all", "--ignore="] }, { maxPositionals: 0 }),
  uptime: ro("none", { flags: "ps", long: ["--pretty", "--since"] }, { maxPositionals: 0 }),
  arch: ro("none", {}, { maxPositionals: 0 }),
  groups: ro("none", {}),
  which: ro("none", { flags: "as" }),
  type: ro("none", { flags: "afptP" }),
  date: ro(
    "none",
    {
      flags: "uR",
      valued: "dfr",
      long: words(
        "--date= --file= --iso-8601[=] --rfc-3339= --rfc-email --reference= --utc --universal",
        "--debug",
      ),
    },
    { pathOptions: { "-f": "read", "--file": "read", "-r": "read", "--reference": "read" } },
  ),
  sleep: ro("none", {}),
  seq: ro("none", {
    valued: "fs",
    flags: "w",
    long: ["--format=", "--separator=", "--equal-width"],
    numeric: true,
  }),
  expr: ro("none", {}, { anyArgs: true }),
  basename: ro("none", { flags: "az", valued: "s", long: ["--multiple", "--suffix=", "--zero"] }),
  dirname: ro("none", { flags: "z", long: ["--zero"] }),
  realpath: ro("read", {
    flags: "eLmPqsz",
    long: words(
      "--canonicalize-existing --canonicalize-missing --logical --physical --quiet --strip",
      "--no-symlinks --zero --relative-to= --relative-base=",
    ),
  }),
  readlink: ro("read", {
    flags: "efmnqsvz",
    long: words(
      "--canonicalize --canonicalize-existing --canonicalize-missing --no-newline --quiet",
      "--silent --verbose --zero",
    ),
  }),
  file: ro("read", {
    flags: "bcdhikLlNnprsvzZS0",
    valued: "eF",
    long: words(
      "--brief --mime --mime-type --mime-encoding --no-dereference --dereference --keep-going",
      "--raw --special-files --uncompress --extension --print0 --separator= --exclude=",
    ),
  }),
  stat: ro("read", {
    flags: "LftZ",
    valued: "c",
    long: ["--dereference", "--file-system", "--format=", "--printf=", "--terse", "--cached="],
  }),
  du: ro("read", {
    flags: "0abcDhHklmsSxP",
    valued: "dBt",
    long: words(
      "--all --apparent-size --block-size= --bytes --total --max-depth= --human-readable",
      "--summarize --separate-dirs --si --one-file-system --exclude= --time[=] --threshold=",
      "--inodes --null --count-links",
    ),
  }),
  df: ro("read", {
    flags: "ahHiklPTx",
    valued: "tB",
    long: words(
      "--all --block-size= --human-readable --si --inodes --local --portability --print-type",
      "--type= --exclude-type= --total --output[=]",
    ),
  }),
  tree: ro("read", {
    flags: "adfxpsughDFqNQrtvUCnJiA",
    valued: "LPI",
    long: words(
      "--noreport --dirsfirst --gitignore --prune --matchdirs --ignore-case --charset=",
      "--filelimit= --sort= --du --si --timefmt=",
    ),
  }),
  sort: ro(
    "read",
    {
      flags: "bdfghiMnRrsuVzcC",
      valued: "ktSo",
      long: words(
        "--reverse --numeric-sort --unique --key= --field-separator= --ignore-case",
        "--human-numeric-sort --general-numeric-sort --month-sort --version-sort --random-sort",
        "--stable --zero-terminated --check[=] --ignore-leading-blanks --dictionary-order",
        "--ignore-nonprinting --buffer-size= --parallel= --output=",
      ),
    },
    { pathOptions: { "-o": "write", "--output": "write" } },
  ),
  uniq: ro(
    "read",
    {
      flags: "cdDiuz",
      valued: "fsw",
      long: words(
        "--count --repeated --all-repeated[=] --skip-fields= --group[=] --ignore-case",
        "--skip-chars= --unique --zero-terminated --check-chars=",
      ),
    },
    { maxPositionals: 1 },
  ),
  cut: ro("read", {
    flags: "snz",
    valued: "bcdf",
    long: words(
      "--bytes= --characters= --delimiter= --fields= --only-delimited --complement",
      "--output-delimiter= --zero-terminated",
    ),
  }),
  tr: ro("none", {
    flags: "cCdst",
    long: ["--complement", "--delete", "--squeeze-repeats", "--truncate-set1"],
  }),
  paste: ro("read", { flags: "sz", valued: "d", long: ["--serial", "--delimiters=", "--zero-terminated"] }),
  column: ro("read", { flags: "tnxeLr", valued: "scoNRHW" }),
  nl: ro("read", { flags: "p", valued: "bdfhilnsvw" }),
  tac: ro("read", { flags: "br", valued: "s" }),
  rev: ro("read", {}),
  od: ro("read", { flags: "bcdfhilosxv", valued: "AjNtSw" }),
  hexdump: ro("read", { flags: "bcCdovx", valued: "ns" }),
  xxd: ro("read", { flags: "abCEiupsR", valued: "cglosn" }, { maxPositionals: 1 }),
  strings: ro("read", { flags: "afw", valued: "nteT" }),
  md5sum: CHECKSUM,
  sha1sum: CHECKSUM,
  sha224sum: CHECKSUM,
  sha256sum: CHECKSUM,
  sha384sum: CHECKSUM,
  sha512sum: CHECKSUM,
  b2sum: CHECKSUM,
  cksum: CHECKSUM,
  base64: ro(
    "read",
    { flags: "di", valued: "w", long: ["--decode", "--ignore-garbage", "--wrap="] },
    { maxPositionals: 1 },
  ),
  diff: ro(
    "read",
    {
      flags: "abBcdeEfHiINnpPqrsStTuwyZ",
      valued: "CUxXIL",
      long: words(
        "--unified[=] --context[=] --recursive --brief --new-file --ignore-all-space",
        "--ignore-space-change --ignore-blank-lines --ignore-case --side-by-side --width= --text",
        "--color[=] --suppress-common-lines --exclude= --strip-trailing-cr --label= --normal",
        "--minimal --report-identical-files --no-dereference --speed-large-files",
        "--show-function-line= --show-c-function --expand-tabs --initial-tab",
        "--ignore-tab-expansion --ignore-trailing-space --ignore-matching-lines=",
      ),
    },
    { pathOptions: { "-X": "read" }, recursiveOptions: ["-r", "--recursive"] },
  ),
  cmp: ro("read", {
    flags: "blsv",
    valued: "in",
    long: ["--print-bytes", "--verbose", "--quiet", "--silent", "--ignore-initial=", "--bytes="],
  }),
  comm: ro("read", {
    flags: "123iz",
    long: ["--check-order", "--nocheck-order", "--output-delimiter=", "--total", "--zero-terminated"],
  }),
  man: ro("none", {
    flags: "afkw",
    valued: "sS",
    long: ["--all", "--apropos", "--whatis", "--where", "--path", "--sections="],
  }),
  cd: ro("read", { flags: "LPe" }, { maxPositionals: 1 }),
  // Plain file-system commands: allowed in acceptEdits inside the working directories.
  mkdir: ro(
    "write",
    { flags: "pv", valued: "m", long: ["--parents", "--verbose", "--mode="] },
    { fileWrite: true },
  ),
  touch: ro(
    "write",
    {
      flags: "acmh",
      valued: "dt",
      long: ["--no-create", "--date=", "--no-dereference", "--time="],
    },
    { fileWrite: true },
  ),
  rm: ro(
    "write",
    {
      flags: "rRfivdI",
      long: [
        "--recursive",
        "--force",
        "--verbose",
        "--dir",
        "--interactive[=]",
        "--one-file-system",
        "--preserve-root[=]",
      ],
    },
    { fileWrite: true },
  ),
  rmdir: ro(
    "write",
    { flags: "pv", long: ["--parents", "--verbose", "--ignore-fail-on-non-empty"] },
    { fileWrite: true },
  ),
  mv: ro(
    "write",
    {
      flags: "finuvTb",
      valued: "tS",
      long: words(
        "--force --interactive --no-clobber --update[=] --verbose --no-target-directory",
        "--target-directory= --backup[=] --suffix= --strip-trailing-slashes",
      ),
    },
    { fileWrite: true, pathOptions: { "-t": "write", "--target-directory": "write" } },
  ),
  cp: ro(
    "write",
    {
      flags: "aRrfinuvpPLHTbdx",
      valued: "tS",
      long: words(
        "--archive --recursive --force --interactive --no-clobber --update[=] --verbose",
        "--preserve[=] --no-preserve= --parents --target-directory= --no-target-directory",
        "--backup[=] --suffix= --dereference --no-dereference --one-file-system --sparse=",
        "--reflink[=] --remove-destination --strip-trailing-slashes --attributes-only",
        "--copy-contents",
      ),
    },
    {
      fileWrite: true,
      pathOptions: { "-t": "write", "--target-directory": "write" },
      recursiveOptions: ["-r", "-R", "-a", "--recursive", "--archive"],
    },
  ),
  tee: ro(
    "write",
    { flags: "aip", long: ["--append", "--ignore-interrupts", "--output-error[=]"] },
    { fileWrite: true },
  ),
};

/** Commands whose every argument names a file they change (for path checks even when options are unknown). */
export const WRITE_COMMANDS = new Set(
  words(
    "rm rmdir mkdir touch mv cp tee ln chmod chown chgrp truncate shred unlink install rsync",
    "dd patch tar unzip zip git-apply",
  ),
);

/** `<cmd> --version` and a few equivalents only print a version. */
export const VERSION_COMMANDS = new Set(
  words(
    "node python python3 npm npx pnpm yarn bun deno cargo rustc rustup go java javac ruby",
    "perl gcc g++ clang make cmake tsc docker kubectl pip pip3 uv poetry git bash zsh sh rg",
    "fd jq curl wget gh php dotnet",
  ),
);
