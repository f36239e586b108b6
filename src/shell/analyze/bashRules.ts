// Bash(...) rule specifiers: exact (`npm test`), prefix at a word boundary (`git commit:*` matches
// `git commit -m x`, never `git committed`), and `*` wildcards (`git * --force`).
import { segmentRegex } from "./expand.ts";

export type BashPattern =
  | { kind: "exact"; words: string[] }
  | { kind: "prefix"; words: string[] }
  | { kind: "wildcard"; regex: RegExp };

/** Splits a specifier into words the way a shell would: quotes group, backslash escapes. */
export function tokenizeSpecifier(text: string): string[] {
  const words: string[] = [];
  let current = "";
  let inWord = false;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === "\\" && quote === '"' && i + 1 < text.length) current += text[++i];
      else current += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === "\\" && i + 1 < text.length) {
      current += text[++i];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(current);
      current = "";
      inWord = false;
    } else {
      current += char;
      inWord = true;
    }
  }
  if (inWord) words.push(current);
  return words;
}

/** True when the text has a `*` that is not escaped with a backslash. */
function hasWildcard(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "*") return true;
  }
  return false;
}

function wildcardRegex(text: string): RegExp {
  // A trailing " *" (or ":*") also matches the bare command: `ls *` covers `ls`.
  const trailing = /(?:\s+|:)\*$/.test(text);
  const body = trailing ? text.replace(/(?:\s+|:)\*$/, "") : text;
  let source = "";
  for (let i = 0; i < body.length; i++) {
    const char = body[i] as string;
    if (char === "\\" && i + 1 < body.length) source += escapeRegex(body[++i] as string);
    else if (char === "*") source += "[\\s\\S]*";
    else if (/\s/.test(char)) {
      while (/\s/.test(body[i + 1] ?? "")) i++;
      source += " ";
    } else source += escapeRegex(char);
  }
  return new RegExp(`^${source}${trailing ? "(?: [\\s\\S]*)?" : ""}$`);
}

function escapeRegex(char: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(char) ? `\\${char}` : char;
}

export function parseBashPattern(content: string): BashPattern {
  const text = content.trim();
  if (text.endsWith(":*") && !hasWildcard(text.slice(0, -2))) {
    return { kind: "prefix", words: tokenizeSpecifier(text.slice(0, -2)) };
  }
  if (hasWildcard(text)) return { kind: "wildcard", regex: wildcardRegex(text) };
  return { kind: "exact", words: tokenizeSpecifier(text) };
}

/** A reason the specifier cannot work, or undefined. */
export function validateBashSpecifier(content: string): string | undefined {
  const text = content.trim();
  if (text === "" || text === ":*") return "the Bash rule names no command; write e.g. Bash(npm test:*)";
  if (text.indexOf(":*") !== -1 && text.indexOf(":*") !== text.length - 2)
    return "`:*` is only allowed at the end of a Bash rule; use * for wildcards elsewhere";
  return undefined;
}

/** Does the pattern cover this argv? */
export function patternMatchesArgv(pattern: BashPattern, argv: readonly string[]): boolean {
  switch (pattern.kind) {
    case "exact":
      return pattern.words.length === argv.length && pattern.words.every((word, i) => argv[i] === word);
    case "prefix":
      return (
        pattern.words.length > 0 &&
        argv.length >= pattern.words.length &&
        pattern.words.every((word, i) => argv[i] === word)
      );
    case "wildcard":
      return pattern.regex.test(argv.join(" "));
  }
}

/** Does the pattern cover the raw command text (whitespace collapsed)? Used for deny and ask rules. */
export function patternMatchesText(pattern: BashPattern, text: string): boolean {
  const normal = text.trim().replace(/\s+/g, " ");
  switch (pattern.kind) {
    case "exact":
      return normal === pattern.words.join(" ");
    case "prefix": {
      const prefix = pattern.words.join(" ");
      return prefix !== "" && (normal === prefix || normal.startsWith(`${prefix} `));
    }
    case "wildcard":
      return pattern.regex.test(normal);
  }
}

/** Option synonyms per program, for deny and ask rules: each maps to the spelling rules are compared in. */
const OPTION_SYNONYMS: Record<string, Record<string, readonly string[]>> = {
  rm: { "--recursive": ["-r"], "-R": ["-r"], "--force": ["-f"], "--dir": ["-d"], "--verbose": ["-v"] },
  cp: { "--recursive": ["-r"], "-R": ["-r"], "--force": ["-f"], "--archive": ["-a"] },
  mv: { "--force": ["-f"] },
  chmod: { "--recursive": ["-R"] },
  chown: { "--recursive": ["-R"] },
  chgrp: { "--recursive": ["-R"] },
  curl: {
    "--request": ["-X"],
    "--data": ["-d"],
    "--output": ["-o"],
    "--insecure": ["-k"],
    "--upload-file": ["-T"],
  },
  docker: { "--all": ["-a"], "--force": ["-f"], "--volumes": ["-v"] },
  podman: { "--all": ["-a"], "--force": ["-f"], "--volumes": ["-v"] },
  npm: { "--force": ["-f"], "--global": ["-g"] },
  kubectl: { "--all-namespaces": ["-A"], "--namespace": ["-n"], "--recursive": ["-R"] },
  "git push": { "-f": ["--force"], "--force-with-lease": ["--force"], "--force-if-includes": ["--force"] },
  "git clean": { "--force": ["-f"], "--dry-run": ["-n"] },
  "git checkout": { "--force": ["-f"] },
  "git switch": { "--force": ["-f"], "--discard-changes": ["-f"] },
  "git branch": { "-D": ["-d", "-f"], "--delete": ["-d"], "--force": ["-f"] },
  "git reset": {},
};

/** One option as found: every spelling it may be, and the values that may belong to it. */
interface OptionUse {
  spellings: Set<string>;
  values: string[];
}

/**
 * Reads options for deny and ask rules, as widely as the programs might: bundles split, synonyms
 * mapped, GNU-style abbreviations of the known long options (`--recu`, `--har`), a single-dash word
 * also as a Go-style long option (`-auto-approve` is `--auto-approve`), and values glued (`-XDELETE`,
 * `--request=DELETE`) or following.
 */
class OptionReader {
  readonly #synonyms: Record<string, readonly string[]>;
  readonly #longs: string[];

  constructor(lead: readonly string[], ruleLongs: readonly string[]) {
    this.#synonyms = OPTION_SYNONYMS[lead.join(" ")] ?? OPTION_SYNONYMS[lead[0] ?? ""] ?? {};
    this.#longs = [...new Set([...Object.keys(this.#synonyms), ...ruleLongs])].filter((key) =>
      key.startsWith("--"),
    );
  }

  spellings(option: string, into = new Set<string>()): Set<string> {
    if (into.has(option)) return into;
    into.add(option);
    for (const synonym of this.#synonyms[option] ?? []) this.spellings(synonym, into);
    // GNU programs take any unambiguous start of a long option: read it as each it may be.
    if (option.startsWith("--") && option.length >= 3)
      for (const key of this.#longs) if (key !== option && key.startsWith(option)) this.spellings(key, into);
    return into;
  }

  uses(args: readonly string[], lead: readonly string[]): OptionUse[] {
    const found: OptionUse[] = [];
    const next = (i: number) => (args[i + 1] !== undefined ? [args[i + 1] as string] : []);
    for (let i = 0; i < args.length; i++) {
      const arg = args[i] as string;
      if (arg === "--") break;
      if (arg.startsWith("--")) {
        const eq = arg.indexOf("=");
        const name = eq === -1 ? arg : arg.slice(0, eq);
        found.push({ spellings: this.spellings(name), values: eq === -1 ? next(i) : [arg.slice(eq + 1)] });
      } else if (/^-[A-Za-z0-9]/.test(arg)) {
        const body = arg.slice(1);
        // Each letter of a bundle, with what follows it in the word (or the next word) as its value.
        for (let at = 0; at < body.length && /[A-Za-z0-9]/.test(body[at] as string); at++) {
          const rest = body.slice(at + 1);
          found.push({
            spellings: this.spellings(`-${body[at]}`),
            values: rest ? [rest, ...next(i)] : next(i),
          });
        }
        const eq = body.indexOf("=");
        const long = `--${eq === -1 ? body : body.slice(0, eq)}`;
        found.push({ spellings: this.spellings(long), values: eq === -1 ? next(i) : [body.slice(eq + 1)] });
      } else if (lead.join(" ") === "git push" && arg.startsWith("+")) {
        // `git push origin +main` forces like --force.
        found.push({ spellings: this.spellings("--force"), values: [] });
      }
    }
    return found;
  }
}

/** What a rule's options require: each option (each letter of a bundle) and the value written after it. */
function requirements(options: readonly string[], reader: OptionReader): OptionUse[] {
  const required: OptionUse[] = [];
  for (const word of options) {
    if (!word.startsWith("-")) {
      const last = required.at(-1);
      if (!last || last.values.length > 0) return [];
      last.values.push(word);
      continue;
    }
    const eq = word.indexOf("=");
    const name = eq === -1 ? word : word.slice(0, eq);
    const value = eq === -1 ? [] : [word.slice(eq + 1)];
    if (/^-[A-Za-z0-9]+$/.test(name))
      for (const letter of name.slice(1))
        required.push({ spellings: reader.spellings(`-${letter}`), values: [] });
    else
      required.push({ spellings: reader.spellings(name.startsWith("--") ? name : `-${name}`), values: [] });
    required.at(-1)?.values.push(...value);
  }
  return required;
}

/**
 * The wider reading for deny and ask rules only: a prefix rule's command words must lead, but its
 * options may appear anywhere, in any bundle and under any synonym or abbreviation, with their values
 * glued or apart, so `rm -rf:*` also catches `rm -fr x`, `rm -r -f x` and `rm --recursive --force x`,
 * `git push --force:*` catches `git push -f` and `git push origin +main`, and `curl -X DELETE:*`
 * catches `curl x --request=DELETE`.
 */
export function patternMatchesArgvLoosely(pattern: BashPattern, argv: readonly string[]): boolean {
  if (pattern.kind !== "prefix") return false;
  const firstOption = pattern.words.findIndex((word) => word.startsWith("-"));
  if (firstOption <= 0) return false;
  const lead = pattern.words.slice(0, firstOption);
  if (argv.length < lead.length || !lead.every((word, i) => argv[i] === word)) return false;
  const options = pattern.words.slice(firstOption);
  const reader = new OptionReader(
    lead,
    options.filter((word) => word.startsWith("--")).map((word) => word.split("=")[0] as string),
  );
  const required = requirements(options, reader);
  if (required.length === 0) return false;
  const present = reader.uses(argv.slice(lead.length), lead);
  return required.every((need) =>
    present.some(
      (use) =>
        [...need.spellings].some((spelling) => use.spellings.has(spelling)) &&
        need.values.every((value) => use.values.includes(value)),
    ),
  );
}

/** The program a rule names first (`rm` of `rm -rf:*`), when it is a plain word. */
function ruleProgram(pattern: BashPattern): string | undefined {
  if (pattern.kind !== "wildcard") return pattern.words[0];
  const match = pattern.regex.source.match(/^\^([A-Za-z0-9_.+-]+)(?: |\(|$)/);
  return match?.[1];
}

/**
 * A command whose words are globs (`/bin/r[m]`, `r?`, `git p[u]sh`) runs whatever files they match when
 * it runs: for deny and ask rules each globbed word is read as the rule's word wherever it could match it.
 */
export function globProgramForm(pattern: BashPattern, form: readonly string[]): string[] | undefined {
  if (!form.some((word) => /[*?[]/.test(word))) return undefined;
  const words = pattern.kind === "wildcard" ? [ruleProgram(pattern)] : pattern.words;
  let changed = false;
  const resolved = form.map((word, i) => {
    const wanted = words[i];
    if (wanted === undefined || !/[*?[]/.test(word)) return word;
    const base = i === 0 ? word.slice(word.lastIndexOf("/") + 1) : word;
    if (!segmentRegex(base).test(wanted)) return word;
    changed = true;
    return wanted;
  });
  return changed ? resolved : undefined;
}
