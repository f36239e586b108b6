// Per program: the options that run other code ("runs") or name files the program writes ("writes"),
// with the grammar needed to read them as the program does (which short letters take a value, which
// long options take one, abbreviations, settings). Read by dangerousOptions.ts; a program missing here
// is read by what its option names say (`--config`, `--output`...). The JavaScript package managers'
// settings are in packageManagerOptions.ts, build, test and language tools in buildToolOptions.ts.
import {
  CARGO,
  COMPILER,
  CONTAINER,
  DENO,
  ESLINT,
  GO,
  GRADLE,
  MAVEN,
  NODE,
  PIP,
  PRETTIER,
  PYTEST,
  PYTHON,
  TERRAFORM,
  TEST_RUNNER,
  TSC,
} from "./buildToolOptions.ts";
import type { DangerousOption, OptionDanger } from "./dangerousOptions.ts";
import { words } from "./options.ts";
import { BUN, BUN_OWN, NPM, NPX, PACKAGE_RUNNER } from "./packageManagerOptions.ts";

export interface Settings {
  /** Keys known to be harmless (`silent`, `save-dev`...). Any other key is a "setting" danger. */
  harmless: ReadonlySet<string>;
  /** Harmless keys that take the next word as their value. */
  valued: ReadonlySet<string>;
  /** Keys that run code or name files. */
  dangerous: Readonly<Record<string, OptionDanger>>;
  /** Single-dash shorthands and the key each stands for (`g` -> global, `ws` -> workspaces). */
  shorthands: Readonly<Record<string, string>>;
}

export interface OptionTable {
  /** "gnu" (default): bundles and `--long`; "single-dash": `-name` and `--name` alike (go, tsc, find). */
  style?: "gnu" | "single-dash";
  /** Unique starts of long options are accepted (default true; Go, find and tsc take whole names only). */
  abbreviations?: boolean;
  caseInsensitive?: boolean;
  /** Short letters that take a value (the rest of the word, or the next word). */
  valued?: string;
  /** Short letters whose value, if any, is the rest of the word, never the next word (sed -i[SUFFIX]). */
  attached?: string;
  /** Harmless long options listed so their values are skipped and abbreviations read right ("--key=" takes a value). */
  valuedLong?: readonly string[];
  runs?: { long?: readonly string[]; short?: string };
  writes?: { long?: readonly string[]; short?: string };
  /** Whole option words (zip -TT, nmap -oN); `takesValue`: the next word is the value. */
  exact?: Readonly<Record<string, { kind: OptionDanger; takesValue?: boolean }>>;
  /** Option words starting with these (gcc `-fplugin=`, `-B`). */
  prefixed?: ReadonlyArray<readonly [string, OptionDanger]>;
  /** Long-option prefixes to look through (curl's `--expand-output`). */
  ignoredPrefixes?: readonly string[];
  /** Long options not listed are judged by their names, as for a program with no table (jest, vitest). */
  unknownLong?: "generic";
  /** npm-style: every `--key` is a setting, only known keys are harmless. */
  settings?: Settings;
  /** A value that makes an option dangerous (curl -w '%output{x}', ssh -o ProxyCommand=x). */
  value?: (option: string, value: string) => { kind: OptionDanger; file?: string } | undefined;
  /** An operand that is dangerous (make's `CC=x`, less `+!cmd`). */
  operand?: (word: string) => OptionDanger | undefined;
  /** Dangers that depend on more than one word (tar -c -f names the archive it writes); indexes relative to the words given. */
  extra?: (args: readonly string[]) => DangerousOption[];
  /** Subcommands (the first operand) read with their own table. */
  subcommands?: Readonly<Record<string, OptionTable>>;
  /** The table of any other first operand (git's options common to every subcommand). */
  anySubcommand?: OptionTable;
  /** The first operand starts another program's command line (npx), or the words after it are a script's arguments. */
  firstOperand?: "program" | "arguments";
  /** The words after `--` are a script's arguments (npm test -- x) or another program's command line. */
  afterDoubleDash?: "arguments" | "program";
  /** Options end at the first operand (POSIX order). */
  optionsEnd?: "operand";
  /** The option word whose next word names a program run with the rest (python -m). */
  launches?: string;
}

// ---- Programs with GNU-style options ----

const SORT: OptionTable = {
  valued: "kotST",
  valuedLong: words(
    "--key= --field-separator= --buffer-size= --files0-from= --random-source= --parallel=",
    "--batch-size= --sort= --check[=] --debug",
  ),
  runs: { long: ["--compress-program="] },
  writes: { long: ["--output=", "--temporary-directory="], short: "oT" },
};

/** curl -w '%output{file}' (and `%output{>>file}`) writes; `-w @file` reads a format that may. */
function curlWriteOut(option: string, value: string): { kind: OptionDanger; file?: string } | undefined {
  if (option !== "-w" && option !== "--write-out") return undefined;
  if (value.startsWith("@")) return { kind: "writes" };
  const file = value.match(/%output\{(?:>>)?([^}]*)\}/)?.[1];
  return value.includes("%output{") ? { kind: "writes", ...(file ? { file } : {}) } : undefined;
}

const CURL: OptionTable = {
  valued: "AbcCdDeEFHKmoPQrtTuUwxXyYz",
  valuedLong: words(
    "--data= --data-binary= --data-raw= --data-urlencode= --data-ascii= --header= --user=",
    "--user-agent= --referer= --request= --url= --max-time= --connect-timeout= --retry= --form=",
    "--form-string= --proxy= --cookie= --cacert= --cert= --key= --range= --upload-file=",
    "--time-cond= --json= --variable= --write-out= --resolve= --connect-to= --max-filesize=",
    "--limit-rate= --interface= --proxy-user= --oauth2-bearer= --aws-sigv4= --unix-socket=",
    "--retry-delay= --retry-max-time= --max-redirs= --netrc-file= --quote= --noproxy=",
    "--proto= --proto-redir= --proto-default= --preproxy= --request-target= --local-port=",
  ),
  runs: { long: ["--config=", "--engine="], short: "K" },
  writes: {
    long: words(
      "--output= --remote-name --remote-name-all --remote-header-name --dump-header= --cookie-jar=",
      "--trace= --trace-ascii= --stderr= --libcurl= --output-dir= --etag-save= --hsts= --alt-svc=",
      "--create-dirs --ssl-sessions=",
    ),
    short: "oODcJ",
  },
  ignoredPrefixes: ["--expand-"],
  value: curlWriteOut,
};

const WGET: OptionTable = {
  valued: "eoaiBtOTwQPUlADRIXn",
  valuedLong: words(
    "--tries= --timeout= --user-agent= --header= --post-data= --post-file= --body-data=",
    "--body-file= --method= --user= --password= --level= --accept= --reject= --domains=",
    "--wait= --quota= --referer= --load-cookies= --ca-certificate= --certificate= --private-key=",
  ),
  runs: { long: ["--execute=", "--config=", "--use-askpass="], short: "e" },
  writes: {
    long: words(
      "--output-document= --output-file= --append-output= --directory-prefix= --save-cookies=",
      "--warc-file= --rejected-log= --recursive --mirror --page-requisites --content-disposition",
      "--trust-server-names --input-file= --base= --backups=",
    ),
    short: "OoaPrmpi",
  },
};

const SSH_COMMAND_OPTIONS =
  /^(proxycommand|localcommand|permitlocalcommand|knownhostscommand|remotecommand|proxyusefdpass|include|identityagent|securitykeyprovider|pkcs11provider|controlpath)/i;

function sshOption(option: string, value: string): { kind: OptionDanger } | undefined {
  return option === "-o" && SSH_COMMAND_OPTIONS.test(value.trim()) ? { kind: "runs" } : undefined;
}

const SSH: OptionTable = {
  valued: "BbcDEeFIiJLlmOoPpQRSWw",
  runs: { short: "FI" },
  writes: { short: "E" },
  value: sshOption,
  optionsEnd: "operand",
};
const SCP: OptionTable = { valued: "cDFiJloPSX", runs: { short: "FSD" }, value: sshOption };
const SFTP: OptionTable = { valued: "BbcDFiJloPRSsX", runs: { short: "bDFS" }, value: sshOption };

/** less/more `+cmd` runs a less command at start: `!` and `|` hand text to a shell. */
function lessCommand(word: string): OptionDanger | undefined {
  return word.startsWith("+") && /[!|]/.test(word) ? "runs" : undefined;
}

const LESS: OptionTable = {
  valued: "bhjkoOpPTxyz#",
  runs: { long: ["--lesskey-file=", "--lesskey-src=", "--lesskey-content="], short: "k" },
  writes: { long: ["--log-file=", "--LOG-FILE="], short: "oO" },
  operand: lessCommand,
};

/** make VAR=value overrides a variable its recipes use (SHELL, CC, MAKE...). */
function makeVariable(word: string): OptionDanger | undefined {
  return /^[A-Za-z_.][A-Za-z0-9_.-]*\s*[:+?!]?=/.test(word) ? "runs" : undefined;
}

const MAKE: OptionTable = {
  valued: "CfIoWE",
  attached: "O",
  valuedLong: words("--old-file= --what-if= --assume-old= --assume-new= --new-file="),
  runs: { long: words("--directory= --file= --makefile= --include-dir= --eval="), short: "CfIE" },
  operand: makeVariable,
};

/** tar -c/-r/-u/-A with -f writes the archive it names; extracting, -C and -P say where members land. */
function tarWrites(args: readonly string[]): DangerousOption[] {
  const first = args[0] ?? "";
  const bundle = first.startsWith("-") ? "" : first;
  const mode = (letters: string, long: RegExp) =>
    new RegExp(`[${letters}]`).test(bundle) ||
    args.some((arg) => new RegExp(`^-[a-zA-Z]*[${letters}]`).test(arg) || long.test(arg));
  const creates = mode("cruA", /^--(cr|app|upd|cat|conc)/);
  const extracts = mode("x", /^--(ex|get)/);
  const found: DangerousOption[] = [];
  args.forEach((arg, i) => {
    const option = arg.split("=")[0] as string;
    if (creates && (/^-[a-zA-Z]*f/.test(arg) || /^--fi/.test(arg) || (i === 0 && bundle.includes("f"))))
      found.push({ kind: "writes", option: "--file", written: arg, index: i });
    if (extracts && (/^-[a-zA-Z]*[CP]/.test(arg) || /^--(dir|abs)/.test(arg)))
      found.push({ kind: "writes", option, written: arg, index: i });
    if (/^--(remove-f|index-f|listed|backup)/.test(arg) || /^-[a-zA-Z]*g/.test(arg))
      found.push({ kind: "writes", option, written: arg, index: i });
  });
  return found;
}

const TAR: OptionTable = {
  valued: "bCfFgHIKLNTVX",
  runs: {
    long: words(
      "--to-command= --use-compress-program= --checkpoint-action= --info-script= --new-volume-script=",
      "--rsh-command= --rmt-command=",
    ),
    short: "IF",
  },
  extra: tarWrites,
};

const RSYNC: OptionTable = {
  valued: "eBfTM",
  runs: { long: ["--rsh=", "--rsync-path=", "--config=", "--early-input=", "--remote-option="], short: "eM" },
  writes: {
    long: words(
      "--log-file= --backup-dir= --partial-dir= --temp-dir= --write-batch= --only-write-batch=",
      "--remove-source-files",
    ),
    short: "T",
  },
};

const GIT_SUBCOMMAND: OptionTable = {
  runs: {
    long: words(
      "--upload-pack= --receive-pack= --exec= --extcmd= --open-files-in-pager --config-env=",
      "--template= --to-cmd= --cc-cmd= --sendmail-cmd= --smtp-server= --ext-diff",
    ),
  },
  writes: { long: ["--output=", "--output-directory="] },
};
const gitSub = (valued: string, runs: string, writes = ""): OptionTable => ({
  ...GIT_SUBCOMMAND,
  valued,
  runs: { ...GIT_SUBCOMMAND.runs, short: runs },
  writes: { ...GIT_SUBCOMMAND.writes, short: writes },
});
const GIT: OptionTable = {
  valued: "cC",
  runs: { long: ["--config-env=", "--exec-path", "--git-dir=", "--work-tree="], short: "c" },
  subcommands: {
    grep: gitSub("ABCefm", "O"),
    clone: {
      ...gitSub("bcuo", "uc"),
      runs: { long: [...(GIT_SUBCOMMAND.runs?.long ?? []), "--config="], short: "uc" },
    },
    rebase: gitSub("sXx", "x"),
    difftool: gitSub("tx", "x"),
    "format-patch": gitSub("ov", "", "o"),
    archive: gitSub("o", "", "o"),
  },
  anySubcommand: GIT_SUBCOMMAND,
};

const AWK: OptionTable = {
  valued: "vfFEilW",
  attached: "opdD",
  runs: { long: words("--file= --exec= --include= --load="), short: "fEil" },
  writes: { long: words("--pretty-print --profile --dump-variables"), short: "opd" },
  optionsEnd: "operand",
};

const FIND: OptionTable = {
  style: "single-dash",
  abbreviations: false,
  runs: { long: words("-exec -execdir -ok -okdir") },
  writes: { long: words("-fprint= -fprint0= -fprintf= -fls= -delete") },
};

const OPENSSL: OptionTable = {
  style: "single-dash",
  abbreviations: false,
  runs: { long: words("-engine= -config= -provider= -provider-path= -keygen_engine=") },
  writes: { long: words("-out= -keyout= -writerand= -sess_out= -msgfile= -CAserial=") },
};

const ZIP: OptionTable = {
  valued: "bntO",
  exact: {
    "-TT": { kind: "runs", takesValue: true },
    "-lf": { kind: "writes", takesValue: true },
    "-la": { kind: "writes" },
  },
  runs: { long: ["--unzip-command="] },
  writes: { long: ["--output-file=", "--temp-path=", "--logfile-path="], short: "bO" },
};

const NMAP: OptionTable = {
  exact: Object.fromEntries(
    words("-oN -oX -oG -oA -oS -oM").map((option) => [option, { kind: "writes" as const, takesValue: true }]),
  ),
  runs: { long: ["--script=", "--datadir=", "--script-args-file="] },
};

const MAN: OptionTable = {
  valued: "PpCMSsemLRET",
  attached: "HX",
  runs: { long: ["--html", "--pager=", "--preprocessor=", "--gxditview", "--config-file="], short: "HPpXC" },
};

const RG: OptionTable = {
  valued: "efgtTABCmMdjEr",
  runs: { long: ["--pre=", "--hostname-bin=", "--search-zip"], short: "z" },
};

const JQ: OptionTable = { valued: "L", runs: { long: ["--library-path="], short: "L" } };

const ZSTD: OptionTable = {
  valued: "o",
  writes: { long: ["--output-dir-flat=", "--output-dir-mirror=", "--patch-from="], short: "o" },
};

export const DANGEROUS_OPTION_TABLE: Readonly<Record<string, OptionTable>> = {
  sort: SORT,
  docker: CONTAINER,
  podman: CONTAINER,
  shuf: { valued: "ino", writes: { long: ["--output="], short: "o" } },
  curl: CURL,
  wget: WGET,
  npm: NPM,
  npx: NPX,
  pnpm: PACKAGE_RUNNER,
  pnpx: NPX,
  yarn: PACKAGE_RUNNER,
  bun: BUN,
  bunx: { ...BUN_OWN, firstOperand: "program" },
  node: NODE,
  nodejs: NODE,
  python: PYTHON,
  pypy: PYTHON,
  pytest: PYTEST,
  "py.test": PYTEST,
  pip: PIP,
  pip3: PIP,
  make: MAKE,
  gmake: MAKE,
  go: GO,
  cargo: CARGO,
  tsc: TSC,
  eslint: ESLINT,
  prettier: PRETTIER,
  jest: TEST_RUNNER,
  vitest: TEST_RUNNER,
  mocha: TEST_RUNNER,
  awk: AWK,
  gawk: AWK,
  mawk: AWK,
  nawk: AWK,
  find: FIND,
  openssl: OPENSSL,
  terraform: TERRAFORM,
  tofu: TERRAFORM,
  gradle: GRADLE,
  gradlew: GRADLE,
  mvn: MAVEN,
  mvnw: MAVEN,
  deno: DENO,
  gcc: COMPILER,
  "g++": COMPILER,
  cc: COMPILER,
  "c++": COMPILER,
  clang: COMPILER,
  "clang++": COMPILER,
  git: GIT,
  tar: TAR,
  bsdtar: TAR,
  gtar: TAR,
  rsync: RSYNC,
  ssh: SSH,
  scp: SCP,
  sftp: SFTP,
  less: LESS,
  more: LESS,
  zip: ZIP,
  nmap: NMAP,
  man: MAN,
  rg: RG,
  jq: JQ,
  zstd: ZSTD,
  sdiff: { valued: "ow", runs: { long: ["--diff-program="] }, writes: { long: ["--output="], short: "o" } },
  diff3: { runs: { long: ["--diff-program="] } },
  tcpdump: { valued: "cCwrWzGEFiMsTyBjJmQ", runs: { short: "z" }, writes: { short: "w" } },
  gpg: {
    valued: "or",
    runs: { long: ["--homedir=", "--options=", "--exec-path="] },
    writes: { long: ["--output="], short: "o" },
  },
  patch: {
    valued: "pioBrDFYzVdgx",
    writes: {
      long: words("--output= --reject-file= --prefix= --basename-prefix= --suffix= --directory= --backup"),
      short: "orBYzdb",
    },
  },
  tree: { valued: "LPIoHT", writes: { short: "o" } },
  sed: { valued: "elf", attached: "i", runs: { long: ["--file="], short: "f" } },
};
