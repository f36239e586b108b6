// Options that make a program run other code or write files it names (`npm test --script-shell=x`,
// `sort --outp=x`, `curl -w '%output{x}'`), found by reading the words with the program's own option
// grammar (dangerousOptionTable.ts): GNU bundles and attached values (`-mo/x`), unique prefixes of long
// options (`--outp`), `--opt=value` and `--opt value`, Go-style single-dash names, npm's
// `--any-config-key`. An allow rule never covers a command that carries one (ruleMatcher.ts); the
// "runs" ones are a finding of their own (security/programOptions.ts) and the files the "writes" ones
// name are judged as writes (pathValidation.ts).
import { COMMAND_SPECS } from "./commandSpecs.ts";
import { DANGEROUS_OPTION_TABLE, type OptionTable, type Settings } from "./dangerousOptionTable.ts";
import { words } from "./options.ts";
import { interpreterFamily } from "./programs.ts";

export type OptionDanger =
  /** Runs a program, a module, a script, or reads a configuration that can name one. */
  | "runs"
  /** Writes a file or folder it names (or one a server or a list names). */
  | "writes"
  /** A setting the tool passes on that is not known to be harmless (npm's `--any-key`). */
  | "setting";

export interface DangerousOption {
  kind: OptionDanger;
  /** The option the program reads (`--output` for `--outp=x`), or the word (make's `CC=x`). */
  option: string;
  /** The word as written. */
  written: string;
  /** Index in argv of the word holding the value (or of the option, when it has none). */
  index: number;
  /** The file a "writes" option names, when it names one (`x` of `sort -o x`, of `-w '%output{x}'`). */
  file?: string;
}

const MAX_DEPTH = 4;

/** A record's own entry (a program or key named `constructor` is not Object's). */
function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** The dangerous options of one command (argv[0] is the program; leading `VAR=value` words are skipped). */
export function dangerousOptions(argv: readonly string[]): DangerousOption[] {
  let start = 0;
  while (start < argv.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[start] as string)) start++;
  const found: DangerousOption[] = [];
  readProgram(argv, start, found, 0);
  return found;
}

/** The table of a program by its name: the basename, in lower case too, and without a version (python3.12). */
export function optionTableOf(name: string): OptionTable | undefined {
  const base = name.slice(name.lastIndexOf("/") + 1);
  const table = own(DANGEROUS_OPTION_TABLE, base) ?? own(DANGEROUS_OPTION_TABLE, base.toLowerCase());
  if (table) return table;
  const family = interpreterFamily(base);
  return family !== base ? own(DANGEROUS_OPTION_TABLE, family) : undefined;
}

/** argv[at] as a program with its arguments; a program with no table is read by what option names say. */
function readProgram(argv: readonly string[], at: number, found: DangerousOption[], depth: number): void {
  const name = argv[at];
  if (name === undefined || depth > MAX_DEPTH) return;
  const table = optionTableOf(name);
  if (table) readWith(table, argv, at + 1, found, depth);
  else if (!hasOwnGrammar(name)) readGeneric(argv, at + 1, found);
}

/** Programs whose options the read-only specs know (grep -o is --only-matching): their names are not guessed at. */
const OWN_GRAMMAR = new Set([...Object.keys(COMMAND_SPECS), ...words("ps fd fdfind ln xargs")]);

function hasOwnGrammar(name: string): boolean {
  return OWN_GRAMMAR.has(name.slice(name.lastIndexOf("/") + 1));
}

function push(found: DangerousOption[], danger: DangerousOption): void {
  if (!found.some((known) => known.index === danger.index && known.option === danger.option))
    found.push(danger);
}

/** One option with its value: a danger of its own kind, and whatever its value makes it (curl -w). */
function judge(
  table: OptionTable,
  option: string,
  kind: OptionDanger | undefined,
  value: string | undefined,
  written: string,
  index: number,
  found: DangerousOption[],
): void {
  if (kind)
    push(found, {
      kind,
      option,
      written,
      index,
      ...(kind === "writes" && value !== undefined && value !== "" ? { file: value } : {}),
    });
  if (value === undefined) return;
  const byValue = table.value?.(option, value);
  if (byValue)
    push(found, {
      kind: byValue.kind,
      option,
      written,
      index,
      ...(byValue.file === undefined ? {} : { file: byValue.file }),
    });
}

/** Reads the words from `from` with one program's table. */
function readWith(
  table: OptionTable,
  argv: readonly string[],
  from: number,
  found: DangerousOption[],
  depth: number,
): void {
  for (const extra of table.extra?.(argv.slice(from)) ?? [])
    push(found, { ...extra, index: extra.index + from });
  let sawOperand = false;
  for (let i = from; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === "--") {
      if (table.afterDoubleDash === "arguments") readGeneric(argv, i + 1, found);
      if (table.afterDoubleDash === "program") readProgram(argv, i + 1, found, depth + 1);
      return;
    }
    const isOption = word.startsWith("-") && word !== "-" && !(table.optionsEnd === "operand" && sawOperand);
    if (isOption) {
      i = readOption(table, argv, i, found, depth);
      if (i < 0) return;
      continue;
    }
    // An operand: a subcommand with a table of its own, another program's command line, or a plain operand.
    const sub = sawOperand ? undefined : (own(table.subcommands, word) ?? table.anySubcommand);
    if (sub) {
      readWith(sub, argv, i + 1, found, depth + 1);
      return;
    }
    const kind = table.operand?.(word);
    if (kind) push(found, { kind, option: word, written: word, index: i });
    if (!sawOperand && table.firstOperand === "program") {
      readProgram(argv, i, found, depth + 1);
      return;
    }
    if (!sawOperand && table.firstOperand === "arguments") {
      readGeneric(argv, i + 1, found);
      return;
    }
    sawOperand = true;
  }
}

/** One option word (and the value word after it); returns the last index read, or -1 when the rest is another program's. */
function readOption(
  table: OptionTable,
  argv: readonly string[],
  i: number,
  found: DangerousOption[],
  depth: number,
): number {
  const word = argv[i] as string;
  const exact = own(table.exact, word.split("=")[0] as string);
  if (exact) {
    const separate = !word.includes("=") && exact.takesValue === true && i + 1 < argv.length;
    const value = word.includes("=") ? word.slice(word.indexOf("=") + 1) : separate ? argv[i + 1] : undefined;
    judge(table, word.split("=")[0] as string, exact.kind, value, word, separate ? i + 1 : i, found);
    return separate ? i + 1 : i;
  }
  const prefixed = table.prefixed?.find(([prefix]) => word.startsWith(prefix));
  if (prefixed) {
    // `-oFILE`, `-o FILE`, `-specs=FILE`: the value glued, after `=`, or in the next word.
    const [prefix, kind] = prefixed;
    const glued = word.slice(prefix.length).replace(/^=/, "");
    const separate = glued === "" && i + 1 < argv.length;
    judge(
      table,
      prefix,
      kind,
      separate ? argv[i + 1] : glued || undefined,
      word,
      separate ? i + 1 : i,
      found,
    );
    return separate ? i + 1 : i;
  }
  if (table.settings) return readSetting(table.settings, argv, i, found);
  if (table.launches && word === table.launches && i + 1 < argv.length) {
    readProgram(argv, i + 1, found, depth + 1);
    return -1;
  }
  if (word.startsWith("--") || table.style === "single-dash") return readLong(table, argv, i, found);
  return readBundle(table, argv, i, found);
}

interface LongMatch {
  option: string;
  kind?: OptionDanger;
  takesValue: boolean;
}

/** The listed long options `given` may be: itself, or with abbreviations every one it starts. */
function longMatches(table: OptionTable, given: string): LongMatch[] {
  const matches: LongMatch[] = [];
  // Single-dash programs take `-name` and `--name` alike; GNU ones take any unique start of a long option.
  const bare = table.style === "single-dash";
  const fold = (text: string) => {
    const cased = table.caseInsensitive ? text.toLowerCase() : text;
    return bare ? cased.replace(/^-+/, "") : cased;
  };
  const normal = fold(given);
  const consider = (entry: string, kind: OptionDanger | undefined) => {
    const takesValue = entry.endsWith("=");
    const option = entry.replace(/\[?=\]?$/, "");
    const compared = fold(option);
    const abbreviates =
      table.abbreviations !== false && normal.length > (bare ? 0 : 2) && compared.startsWith(normal);
    if (compared === normal || abbreviates) matches.push({ option, takesValue, ...(kind ? { kind } : {}) });
  };
  for (const entry of table.runs?.long ?? []) consider(entry, "runs");
  for (const entry of table.writes?.long ?? []) consider(entry, "writes");
  for (const entry of table.valuedLong ?? []) consider(entry, undefined);
  return matches;
}

/** `--name`, `--name=value`, `--name value` (and `-name` for single-dash programs). Returns the last index read. */
function readLong(table: OptionTable, argv: readonly string[], i: number, found: DangerousOption[]): number {
  const word = argv[i] as string;
  const eq = word.indexOf("=");
  let name = eq === -1 ? word : word.slice(0, eq);
  for (const prefix of table.ignoredPrefixes ?? [])
    if (name.startsWith(prefix)) name = `--${name.slice(prefix.length)}`;
  const matches = longMatches(table, name);
  const dangerous = matches.filter((match) => match.kind !== undefined);
  // A separate value is taken only when every option the word may be takes one.
  const takesValue = eq === -1 && matches.length > 0 && matches.every((match) => match.takesValue);
  const valueIndex = takesValue && i + 1 < argv.length ? i + 1 : i;
  const value = eq !== -1 ? word.slice(eq + 1) : takesValue ? argv[i + 1] : undefined;
  for (const match of dangerous) judge(table, match.option, match.kind, value, word, valueIndex, found);
  const only = matches[0];
  if (dangerous.length === 0 && matches.length === 1 && only)
    judge(table, only.option, undefined, value, word, valueIndex, found);
  if (matches.length === 0 && table.unknownLong === "generic") {
    const kind = genericKind(name.replace(/^--?/, ""));
    if (kind) judge(table, name, kind, eq === -1 ? undefined : value, word, i, found);
  }
  return valueIndex;
}

/** `-abc`, `-ovalue`, `-o value`: each letter, up to the first that takes a value. Returns the last index read. */
function readBundle(
  table: OptionTable,
  argv: readonly string[],
  i: number,
  found: DangerousOption[],
): number {
  const word = argv[i] as string;
  for (let at = 1; at < word.length; at++) {
    const letter = word[at] as string;
    const kind: OptionDanger | undefined = table.runs?.short?.includes(letter)
      ? "runs"
      : table.writes?.short?.includes(letter)
        ? "writes"
        : undefined;
    if (table.attached?.includes(letter)) {
      judge(table, `-${letter}`, kind, word.slice(at + 1) || undefined, word, i, found);
      return i;
    }
    if (!table.valued?.includes(letter)) {
      if (kind) push(found, { kind, option: `-${letter}`, written: word, index: i });
      continue;
    }
    const rest = word.slice(at + 1);
    const separate = rest === "" && i + 1 < argv.length;
    const value = rest !== "" ? rest : separate ? argv[i + 1] : undefined;
    judge(table, `-${letter}`, kind, value, word, separate ? i + 1 : i, found);
    return separate ? i + 1 : i;
  }
  return i;
}

/** npm reads `--Script_Shell` as script-shell, and `--no-x` as x set to false. */
function settingKey(key: string): string {
  const lower = key.toLowerCase().replace(/_/g, "-");
  return lower.startsWith("no-") ? lower.slice(3) : lower;
}

/** What one setting is: a danger of its own, harmless, or not known to be harmless. */
function settingDanger(settings: Settings, key: string): OptionDanger | undefined {
  const dangerous = own(settings.dangerous, key);
  if (dangerous) return dangerous;
  if (settings.harmless.has(key)) return undefined;
  // pnpm's `--config.key=value` and the like set any key.
  return "setting";
}

/** npm-style settings: `--key[=value]`, `--no-key`, shorthands (`-g`, `-ws`, `-Dy`); returns the last index read. */
function readSetting(
  settings: Settings,
  argv: readonly string[],
  i: number,
  found: DangerousOption[],
): number {
  const word = argv[i] as string;
  const eq = word.indexOf("=");
  let keys: string[];
  if (word.startsWith("--")) keys = [settingKey(eq === -1 ? word.slice(2) : word.slice(2, eq))];
  else {
    const short = eq === -1 ? word.slice(1) : word.slice(1, eq);
    const named = own(settings.shorthands, short);
    // nopt reads `-abc` as the shorthands a, b and c when each letter is one; otherwise as `--abc`.
    const letters = [...short].map((letter) => own(settings.shorthands, letter));
    keys =
      named !== undefined
        ? [named]
        : letters.every((key) => key !== undefined)
          ? (letters as string[])
          : [settingKey(short)];
  }
  const value = eq === -1 ? undefined : word.slice(eq + 1);
  for (const key of keys) {
    const kind = settingDanger(settings, key);
    if (kind)
      push(found, {
        kind,
        option: `--${key}`,
        written: word,
        index: i,
        ...(kind === "writes" && value ? { file: value } : {}),
      });
  }
  // A setting that takes a value takes the next word, unless that word is an option.
  const next = argv[i + 1];
  const last = keys.at(-1) ?? "";
  return eq === -1 && settings.valued.has(last) && next !== undefined && !next.startsWith("-") ? i + 1 : i;
}

/**
 * What the name of an option of a program with no table says it does: run code (`--config`,
 * `--require`, `--exec`, `--plugin`, `--shell`, `--cwd`...) or write what it names (`--output`,
 * `--out-dir`, `--log-file`, `--prefix`...). Dotted keys (`--coverage.reportsDirectory`) by each part.
 */
const GENERIC_RUNS =
  /^(exec|eval|command|cmd|shell|script|script-?shell|shell-?emulator|pre|preload|require|import|loader|plugins?|config|config-?file|rc|rc-?file|init|init-?file|setup|setup-?files?|global-?setup|global-?teardown|teardown|hooks?|program|interpreter|wrapper|runner|test-?runner|transform|reporters?|resolver|preset|editor|pager|browser|viewer|askpass|use-?askpass|node-?options|toolexec|compiler|linker|rustc-?wrapper|eval-?file|rules-?dir|rulesdir|sequencer|snapshot-?resolver|watch-?plugins|exec-?path|cwd|chdir|dir|directory)$|-(command|cmd|program|prog|shell|hook|plugin|script|exec|helper|wrapper|config|loader|preload|runner|reporter)$/;
const GENERIC_WRITES =
  /^(o|out|output|outfile|out-?file|outdir|out-?dir|output-?file|output-?dir|output-?directory|output-?document|output-?path|log-?file|logfile|dump-?file|save-?to|dest|destination|dest-?dir|target-?dir|prefix|install-?dir|build-?dir|dist-?dir|cache-?dir|cache-?location|cache-?directory|temp-?dir|tmp-?dir|tmpdir|basetemp|report-?dir|reports-?dir|coverage-?dir|coverage-?directory|junit-?xml|junitxml|root-?dir|rootdir)$|(-out|-output|-outdir|-outfile|-dir|-directory|-log|-dump|-report)$|^out-|^output-/;

export function genericKind(name: string): OptionDanger | undefined {
  const parts = name
    .replace(/([a-z])([A-Z])/g, "$1-$2")
    .toLowerCase()
    .replace(/_/g, "-")
    .split(".");
  if (parts.some((part) => GENERIC_RUNS.test(part))) return "runs";
  if (parts.some((part) => GENERIC_WRITES.test(part))) return "writes";
  return undefined;
}

/** Words from `from` read by what option names say (a program with no table, or a script's own arguments). */
export function readGeneric(argv: readonly string[], from: number, found: DangerousOption[]): void {
  for (let i = from; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === "--") return;
    if (!word.startsWith("-") || word === "-") continue;
    // `-o x`, `-ox`: the usual output option.
    if (word === "-o" || /^-o[^-=]/.test(word)) {
      const separate = word === "-o" && i + 1 < argv.length;
      const file = separate ? argv[i + 1] : word.slice(2);
      push(found, {
        kind: "writes",
        option: "-o",
        written: word,
        index: separate ? i + 1 : i,
        ...(file ? { file } : {}),
      });
      if (separate) {
        i++;
        continue;
      }
    }
    const eq = word.indexOf("=");
    const name = (eq === -1 ? word : word.slice(0, eq)).replace(/^--?/, "");
    if (name.length < 2) continue;
    const kind = genericKind(name);
    if (!kind) continue;
    const next = argv[i + 1];
    const separate = eq === -1 && next !== undefined && !next.startsWith("-");
    const value = eq !== -1 ? word.slice(eq + 1) : separate ? next : undefined;
    push(found, {
      kind,
      option: `--${name}`,
      written: word,
      index: separate ? i + 1 : i,
      ...(kind === "writes" && value ? { file: value } : {}),
    });
    if (separate) i++;
  }
}
