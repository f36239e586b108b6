// A strict getopt-style reader for allowlisted options: any option not listed makes the parse fail,
// so an unknown (or abbreviated) option never counts as safe.

export interface OptionSpec {
  /** Short options without a value, e.g. "alhR". */
  flags?: string;
  /** Short options that take a value, e.g. "nA" (`-n 5`, `-n5`). */
  valued?: string;
  /** Short options whose value, if any, is the rest of the word, never the next word (xargs -i[R]). */
  attached?: string;
  /** Long options: "--all" (no value), "--lines=" (value required), "--color[=]" (optional, attached). */
  long?: readonly string[];
  /** Accepts `-NUM` (head -20, grep -5). */
  numeric?: boolean;
  /** Options end at the first positional (POSIX), as for wrappers that run a command. */
  stopAtPositional?: boolean;
}

export interface ParsedOption {
  name: string;
  value?: string;
}

export type OptionParse =
  | { ok: true; options: ParsedOption[]; positionals: string[]; positionalIndexes: number[] }
  | { ok: false; option: string; reason: string };

interface LongTable {
  flags: Set<string>;
  required: Set<string>;
  optional: Set<string>;
}

const longTables = new WeakMap<readonly string[], LongTable>();

function longTable(long: readonly string[] | undefined): LongTable {
  const empty: LongTable = { flags: new Set(), required: new Set(), optional: new Set() };
  if (!long) return empty;
  let table = longTables.get(long);
  if (!table) {
    table = { flags: new Set(), required: new Set(), optional: new Set() };
    for (const entry of long) {
      if (entry.endsWith("[=]")) table.optional.add(entry.slice(0, -3));
      else if (entry.endsWith("=")) table.required.add(entry.slice(0, -1));
      else table.flags.add(entry);
    }
    longTables.set(long, table);
  }
  return table;
}

/** Parses `args` (argv without the command name) against `spec`. */
export function parseOptions(args: readonly string[], spec: OptionSpec): OptionParse {
  const options: ParsedOption[] = [];
  const positionals: string[] = [];
  const positionalIndexes: number[] = [];
  const table = longTable(spec.long);
  const flags = spec.flags ?? "";
  const valued = spec.valued ?? "";
  let onlyPositionals = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (onlyPositionals || arg === "-" || !arg.startsWith("-")) {
      positionals.push(arg);
      positionalIndexes.push(i);
      if (spec.stopAtPositional) onlyPositionals = true;
      continue;
    }
    if (arg === "--") {
      onlyPositionals = true;
      continue;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq === -1 ? arg : arg.slice(0, eq);
      if (table.flags.has(name) && eq === -1) options.push({ name });
      else if (table.optional.has(name))
        options.push(eq === -1 ? { name } : { name, value: arg.slice(eq + 1) });
      else if (table.required.has(name)) {
        if (eq !== -1) options.push({ name, value: arg.slice(eq + 1) });
        else if (i + 1 < args.length) options.push({ name, value: args[++i] as string });
        else return { ok: false, option: name, reason: `${name} needs a value` };
      } else return { ok: false, option: name, reason: `the option ${name} is not known to be safe` };
      continue;
    }
    if (spec.numeric && /^-\d+$/.test(arg)) {
      options.push({ name: "-NUM", value: arg.slice(1) });
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j] as string;
      if (spec.attached?.includes(letter)) {
        const rest = arg.slice(j + 1);
        options.push(rest === "" ? { name: `-${letter}` } : { name: `-${letter}`, value: rest });
        break;
      }
      if (valued.includes(letter)) {
        const rest = arg.slice(j + 1);
        if (rest !== "") options.push({ name: `-${letter}`, value: rest });
        else if (i + 1 < args.length) options.push({ name: `-${letter}`, value: args[++i] as string });
        else return { ok: false, option: `-${letter}`, reason: `-${letter} needs a value` };
        break;
      }
      if (!flags.includes(letter))
        return { ok: false, option: `-${letter}`, reason: `the option -${letter} is not known to be safe` };
      options.push({ name: `-${letter}` });
    }
  }
  return { ok: true, options, positionals, positionalIndexes };
}

export function hasOption(parse: { options: ParsedOption[] }, ...names: string[]): boolean {
  return parse.options.some((option) => names.includes(option.name));
}

export function optionValues(parse: { options: ParsedOption[] }, ...names: string[]): string[] {
  return parse.options.filter((option) => names.includes(option.name)).map((option) => option.value ?? "");
}

/**
 * True when `given` (an option as typed, before any `=`) names `dangerous`, also as a GNU-style
 * unambiguous abbreviation (`--upload-pa` for `--upload-pack`).
 */
export function namesLongOption(given: string, dangerous: string): boolean {
  const name = given.split("=")[0] as string;
  if (name === dangerous) return true;
  return name.startsWith("--") && name.length >= 4 && dangerous.startsWith(name);
}

/** Splits whitespace-separated option names: keeps long allowlists compact and readable. */
export function words(...groups: string[]): string[] {
  return groups.flatMap((group) => group.split(/\s+/).filter((word) => word !== ""));
}
