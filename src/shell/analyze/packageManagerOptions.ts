// npm and the other JavaScript package managers, for the option table: every `--key[=value]` is a
// setting, and only the keys known to be harmless are; pnpm, yarn and bun take their own settings
// before the command and pass what follows to a script (or, after exec/dlx/x, to another program).
import type { OptionDanger } from "./dangerousOptions.ts";
import type { OptionTable, Settings } from "./dangerousOptionTable.ts";
import { words } from "./options.ts";

const NPM_HARMLESS = new Set(
  words(
    "silent quiet loglevel verbose json parseable long color unicode progress if-present",
    "ignore-scripts foreground-scripts dry-run yes audit fund save save-dev save-exact",
    "save-optional save-peer save-prod save-bundle omit include production legacy-peer-deps",
    "strict-peer-deps prefer-offline prefer-online offline package-lock package-lock-only depth",
    "all workspace workspaces include-workspace-root force install-strategy audit-level before",
    "tag access otp update-notifier engine-strict bin-links install-links global-style timing",
    "usage help version versions description fetch-retries fetch-timeout message preid",
    "allow-same-version git-tag-version workspaces-update read-only expect-results",
    "expect-result-count recursive filter workspace-root parallel stream aggregate-output",
    "reporter sequential reverse frozen-lockfile prefer-frozen-lockfile lockfile-only",
    "fix-lockfile dev prod optional immutable check-cache inline-builds pure-lockfile",
    "non-interactive no-progress mode top-level interactive watch coverage ci",
  ),
);

const NPM_VALUED = new Set(
  words(
    "loglevel omit include depth workspace install-strategy audit-level before tag access otp",
    "message preid fetch-retries fetch-timeout filter reporter mode expect-result-count",
  ),
);

const NPM_DANGEROUS: Readonly<Record<string, OptionDanger>> = {
  "script-shell": "runs",
  shell: "runs",
  "node-options": "runs",
  call: "runs",
  package: "runs",
  "init-module": "runs",
  "onload-script": "runs",
  editor: "runs",
  browser: "runs",
  git: "runs",
  viewer: "runs",
  "node-gyp": "runs",
  python: "runs",
  userconfig: "runs",
  globalconfig: "runs",
  registry: "runs",
  proxy: "runs",
  "https-proxy": "runs",
  "strict-ssl": "runs",
  cafile: "runs",
  "use-node-version": "runs",
  "npm-path": "runs",
  dir: "runs",
  cwd: "runs",
  "use-yarnrc": "runs",
  "sign-git-tag": "runs",
  "sign-git-commit": "runs",
  "commit-hooks": "runs",
  prefix: "writes",
  global: "writes",
  location: "writes",
  cache: "writes",
  "cache-dir": "writes",
  "cache-folder": "writes",
  "logs-dir": "writes",
  tmp: "writes",
  "pack-destination": "writes",
  "store-dir": "writes",
  "virtual-store-dir": "writes",
  "global-dir": "writes",
  "global-bin-dir": "writes",
  "modules-dir": "writes",
  "modules-folder": "writes",
  "global-folder": "writes",
  "link-folder": "writes",
  "state-dir": "writes",
  "report-summary": "writes",
};

const NPM_SHORTHANDS: Readonly<Record<string, string>> = {
  s: "silent",
  q: "quiet",
  d: "loglevel",
  dd: "loglevel",
  ddd: "loglevel",
  y: "yes",
  f: "force",
  D: "save-dev",
  E: "save-exact",
  O: "save-optional",
  P: "save-prod",
  B: "save-bundle",
  S: "save",
  l: "long",
  p: "parseable",
  a: "all",
  w: "workspace",
  ws: "workspaces",
  iwr: "include-workspace-root",
  v: "version",
  h: "usage",
  H: "usage",
  "?": "usage",
  r: "recursive",
  g: "global",
  C: "prefix",
  c: "call",
  reg: "registry",
  L: "location",
};

const NPM_SETTINGS: Settings = {
  harmless: NPM_HARMLESS,
  valued: NPM_VALUED,
  dangerous: NPM_DANGEROUS,
  shorthands: NPM_SHORTHANDS,
};

/** pnpm, yarn and bun take `-C`/`--cwd`/`--dir` for the folder to work in. */
const PACKAGE_RUNNER_SETTINGS: Settings = { ...NPM_SETTINGS, shorthands: { ...NPM_SHORTHANDS, C: "dir" } };

const NPM_EXEC: OptionTable = { settings: NPM_SETTINGS, afterDoubleDash: "program" };
export const NPM: OptionTable = {
  settings: NPM_SETTINGS,
  afterDoubleDash: "arguments",
  subcommands: { exec: NPM_EXEC, x: NPM_EXEC },
};
/** npx reads `-p` as --package and `-c` as --call. */
export const NPX: OptionTable = {
  settings: { ...NPM_SETTINGS, shorthands: { ...NPM_SHORTHANDS, p: "package", c: "call" } },
  firstOperand: "program",
  afterDoubleDash: "program",
};
/** pnpm/yarn/bun: their own settings before the command; a script's arguments after it, another program's after exec/dlx. */
const LAUNCH: OptionTable = { settings: PACKAGE_RUNNER_SETTINGS, firstOperand: "program" };
const RUNNER_SUBCOMMANDS: Readonly<Record<string, OptionTable>> = {
  exec: LAUNCH,
  dlx: LAUNCH,
  x: LAUNCH,
};
export const PACKAGE_RUNNER: OptionTable = {
  settings: PACKAGE_RUNNER_SETTINGS,
  subcommands: RUNNER_SUBCOMMANDS,
  firstOperand: "arguments",
  afterDoubleDash: "arguments",
};

export const BUN_OWN: OptionTable = {
  valued: "rcep",
  runs: {
    long: words(
      "--preload= --require= --import= --config= --cwd= --shell= --eval= --print= --env-file=",
      "--tsconfig-override= --loader= --install= --define=",
    ),
    short: "rcep",
  },
  writes: { long: words("--coverage-dir= --reporter-outfile= --outdir= --outfile= --root=") },
  unknownLong: "generic",
};
export const BUN: OptionTable = {
  ...BUN_OWN,
  subcommands: {
    x: { ...BUN_OWN, firstOperand: "program" },
    test: BUN_OWN,
    build: BUN_OWN,
    run: { ...BUN_OWN, firstOperand: "arguments" },
  },
  firstOperand: "arguments",
};
