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
  "git push": { "-f": ["--force"], "--force-with-lease": ["--force"], "--force-if-includes": ["--force"] },
  "git clean": { "--force": ["-f"], "--dry-run": ["-n"] },
  "git checkout": { "--force": ["-f"] },
  "git switch": { "--force": ["-f"], "--discard-changes": ["-f"] },
  "git branch": { "-D": ["-d", "-f"], "--delete": ["-d"], "--force": ["-f"] },
  "git reset": {},
};

/** Every option of a command (or rule) in its canonical spelling: bundles split, synonyms mapped. */
function canonicalOptions(lead: readonly string[], args: readonly string[]): Set<string> {
  const synonyms = OPTION_SYNONYMS[lead.join(" ")] ?? OPTION_SYNONYMS[lead[0] ?? ""] ?? {};
  const found = new Set<string>();
  const known = Object.keys(synonyms).filter((key) => key.startsWith("--"));
  const addOption = (option: string) => {
    found.add(option);
    for (const synonym of synonyms[option] ?? []) found.add(synonym);
    // GNU programs take any unambiguous start of a long option (`rm --recu --forc`): read it as each it may be.
    if (option.startsWith("--") && option.length >= 3)
      for (const key of known) if (key !== option && key.startsWith(option)) addOption(key);
  };
  for (const arg of args) {
    if (arg === "--") break;
    if (/^-[A-Za-z0-9]+$/.test(arg)) for (const letter of arg.slice(1)) addOption(`-${letter}`);
    else if (arg.startsWith("--")) addOption(arg.split("=")[0] as string);
    // `git push origin +main` forces like --force.
    else if (lead.join(" ") === "git push" && arg.startsWith("+")) addOption("--force");
  }
  return found;
}

/**
 * The wider reading for deny and ask rules only: a prefix rule's command words must lead, but its
 * options may appear anywhere, in any bundle and under any synonym, so `rm -rf:*` also catches
 * `rm -fr x`, `rm -r -f x` and `rm --recursive --force x`, and `git push --force:*` catches
 * `git push origin --force`, `git push -f` and `git push origin +main`.
 */
export function patternMatchesArgvLoosely(pattern: BashPattern, argv: readonly string[]): boolean {
  if (pattern.kind !== "prefix") return false;
  const firstOption = pattern.words.findIndex((word) => word.startsWith("-"));
  if (firstOption <= 0) return false;
  const lead = pattern.words.slice(0, firstOption);
  const options = pattern.words.slice(firstOption);
  if (options.some((word) => !word.startsWith("-")) || argv.length < lead.length) return false;
  if (!lead.every((word, i) => argv[i] === word)) return false;
  const present = canonicalOptions(lead, argv.slice(lead.length));
  // Each option the rule names (each letter of a bundle) must be there under some spelling of it.
  return options.every((option) => {
    const parts = /^-[A-Za-z0-9]+$/.test(option)
      ? [...option.slice(1)].map((letter) => `-${letter}`)
      : [option.split("=")[0] as string];
    return parts.every((part) =>
      [...canonicalOptions(lead, [part])].some((spelling) => present.has(spelling)),
    );
  });
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
