// Programs whose arguments are a language of their own (find expressions, rg/fd options, sed scripts, awk
// programs, jq filters): whether a use is read-only, and which of its words are paths.
import { isTrivialAwkProgram } from "./awkProgram.ts";
import {
  type Classification,
  indexOf,
  other,
  type PathUse,
  positionalUses,
  valueIndex,
} from "./classification.ts";
import { findNames } from "./foundFiles.ts";
import { hasOption, type OptionSpec, optionValues, parseOptions, words } from "./options.ts";
import { judgeSedScript } from "./sedScript.ts";

const FIND_TESTS_WITH_VALUE = new Set(
  words(
    "-name -iname -path -ipath -wholename -iwholename -regex -iregex -regextype -type -xtype",
    "-size -newer -anewer -cnewer -mtime -mmin -atime -amin -ctime -cmin -maxdepth -mindepth",
    "-perm -user -group -uid -gid -links -inum -samefile -printf -lname -ilname -used -fstype",
    "-newermt -newerct -newerat -context",
  ),
);
const FIND_FILE_TESTS = new Set(words("-newer -anewer -cnewer -samefile"));
const FIND_TESTS = new Set(
  words(
    "-print -print0 -ls -prune -empty -depth -not ! -a -and -o -or ( ) , -nouser -nogroup",
    "-readable -writable -executable -true -false -quit -xdev -mount -noleaf -daystart",
    "-ignore_readdir_race -noignore_readdir_race",
  ),
);

/**
 * find's expression: tests are read-only; a per-file command (-exec cmd {} ;) is when it only reads
 * whatever files it is given (`classify` judges it), and then every file below the start folders is
 * opened, its links followed.
 */
export function classifyFind(
  argv: readonly string[],
  classify?: (argv: readonly string[]) => Classification,
): Classification {
  const paths: PathUse[] = [];
  let i = 1;
  while (i < argv.length && ["-H", "-P", "-O0", "-O1", "-O2", "-O3", "-D"].includes(argv[i] as string)) i++;
  if (argv.slice(1, i).includes("-D")) return other("find -D is not known to be safe");
  for (; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg.startsWith("-") || arg === "!" || arg === "(") break;
    paths.push({ value: arg, index: i, access: "read" });
  }
  if (paths.length === 0) paths.push({ value: ".", access: "read" });
  const starts = paths.length;
  const names = classify ? findNames(argv.slice(1), classify) : undefined;
  let opens = false;
  for (; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (FIND_TESTS.has(arg)) continue;
    if (FIND_PER_FILE.has(arg) && names) {
      // findNames has checked the command reads each file it is given; skip to its end.
      opens = true;
      i = argv.findIndex((word, j) => j > i && (word === ";" || word === "+"));
      continue;
    }
    if (FIND_TESTS_WITH_VALUE.has(arg)) {
      // These compare against another file, which find stats: a path read like the start points.
      if (FIND_FILE_TESTS.has(arg) && i + 1 < argv.length)
        paths.push({ value: argv[i + 1] as string, index: i + 1, access: "read" });
      i++;
      continue;
    }
    return other(`find ${arg} is not a read-only find expression`, paths);
  }
  if (opens && names) {
    const follows = {
      noLinks: names.noLinks,
      splitNames: false,
      ...(names.linkName ? { linkName: names.linkName } : {}),
    };
    for (const use of paths.slice(0, starts)) Object.assign(use, { recursive: true, follows });
  }
  return { kind: "read-only", reason: "", paths };
}

const FIND_PER_FILE = new Set(words("-exec -execdir -ok -okdir"));

export const FD_SPEC: OptionSpec = {
  flags: "HIusiFapgl0q1",
  valued: "dtecEjSo",
  long: words(
    "--hidden --no-ignore --no-ignore-vcs --unrestricted --case-sensitive --ignore-case",
    "--glob --regex --fixed-strings --absolute-path --list-details --full-path --print0",
    "--quiet --max-depth= --min-depth= --exact-depth= --type= --extension= --exclude=",
    "--color= --threads= --size= --changed-within= --changed-before= --owner= --max-results=",
    "--prune --strip-cwd-prefix[=] --show-errors --one-file-system --no-require-git --format=",
  ),
};

export const RG_SPEC: OptionSpec = {
  flags: "iSsnNlcvwxoFuUPabHIqp0.hV",
  valued: "efgtTABCmMdjEr",
  numeric: false,
  long: words(
    "--regexp= --file= --glob= --iglob= --type= --type-not= --type-add= --type-clear=",
    "--after-context= --before-context= --context= --max-count= --max-columns= --max-depth=",
    "--threads= --encoding= --replace= --ignore-case --smart-case --case-sensitive",
    "--line-number --no-line-number --files-with-matches --files-without-match --count",
    "--count-matches --invert-match --word-regexp --line-regexp --only-matching",
    "--fixed-strings --unrestricted --multiline --multiline-dotall --pcre2 --text",
    "--byte-offset --with-filename --no-filename --quiet --pretty --null --null-data --hidden",
    "--no-hidden --no-ignore --no-ignore-vcs --no-ignore-parent --no-ignore-dot",
    "--no-ignore-global --no-ignore-exclude --no-ignore-files --files --type-list --json",
    "--vimgrep --heading --no-heading --color= --colors= --column --no-column --sort=",
    "--sortr= --trim --stats --no-messages --passthru --binary --no-binary --max-filesize=",
    "--one-file-system --engine= --no-config --glob-case-insensitive --max-columns-preview",
    "--path-separator= --field-match-separator= --field-context-separator= --no-require-git",
    "--context-separator= --no-context-separator --crlf --no-unicode --block-buffered",
    "--line-buffered --include-zero --no-pcre2-unicode",
  ),
};

export function classifyPatternTool(
  argv: readonly string[],
  spec: OptionSpec,
  listsFiles: boolean,
): Classification {
  const parse = parseOptions(argv.slice(1), spec);
  if (!parse.ok) return other(`${argv[0]} ${parse.option}: ${parse.reason}`);
  const explicitPattern = hasOption(parse, "-e", "-f", "--regexp", "--file");
  const noPattern = listsFiles && hasOption(parse, "--files", "--type-list");
  const skip = explicitPattern || noPattern ? 0 : 1;
  // rg reads every folder it is given whole, and the current folder when given none.
  const paths: PathUse[] = positionalUses(argv, parse.positionalIndexes, "read", skip).map((use) => ({
    ...use,
    recursive: true,
  }));
  if (paths.length === 0) paths.push({ value: ".", access: "read", recursive: true });
  for (const file of optionValues(parse, "-f", "--file"))
    paths.push({ value: file, ...indexOf(argv, file), access: "read" });
  return { kind: "read-only", reason: "", paths };
}

const SED_SPEC: OptionSpec = {
  flags: "nrEsuz",
  valued: "el",
  long: words(
    "--quiet --silent --regexp-extended --separate --unbuffered --null-data --posix",
    "--expression= --line-length= --debug --sandbox",
  ),
};

/** Takes `-i[SUFFIX]` out of sed's short-option bundles (`-ni`, `-i.bak`; in `-ie` the e is a suffix). */
function withoutInPlace(args: readonly string[]): { args: string[]; inPlace: boolean } {
  let inPlace = false;
  const out: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const arg = args[k] as string;
    if (arg === "--") {
      out.push(...args.slice(k));
      break;
    }
    if (arg === "--in-place" || arg.startsWith("--in-place=")) {
      inPlace = true;
      continue;
    }
    if (!arg.startsWith("-") || arg.startsWith("--") || arg === "-") {
      out.push(arg);
      continue;
    }
    let kept = "-";
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j] as string;
      if (letter === "i") {
        inPlace = true;
        break;
      }
      kept += letter;
      if (letter === "e" || letter === "l") {
        kept += arg.slice(j + 1);
        break;
      }
    }
    if (kept !== "-") out.push(kept);
    if (kept === "-e" || kept === "-l") out.push(args[++k] ?? "");
  }
  return { args: out, inPlace };
}

export function classifySed(argv: readonly string[]): Classification {
  const { args, inPlace } = withoutInPlace(argv.slice(1));
  const parsed = parseOptions(args, SED_SPEC);
  if (!parsed.ok) return other(`sed ${parsed.option}: ${parsed.reason}`);
  const scripts = optionValues(parsed, "-e", "--expression");
  const fromOption = scripts.length > 0;
  const script = fromOption ? scripts.join("\n") : (parsed.positionals[0] ?? "");
  const verdict = judgeSedScript(script);
  const files = parsed.positionals.slice(fromOption ? 0 : 1);
  const paths: PathUse[] = files.map((value) => {
    const index = valueIndex(argv, value);
    return { value, ...(index === undefined ? {} : { index }), access: inPlace ? "write" : "read" };
  });
  // Files the script itself reads or writes (r, w, s///w) are judged like the command's own.
  if (verdict.kind === "dangerous")
    return other(verdict.reason, [
      ...paths,
      ...verdict.files.map(({ path, access }) => ({ value: path, access, output: access === "write" })),
    ]);
  if (verdict.kind !== "safe") return other(verdict.reason, paths);
  if (inPlace && paths.length === 0) return other("sed -i without a file");
  return { kind: inPlace ? "file-write" : "read-only", reason: "", paths };
}

export function classifyAwk(argv: readonly string[]): Classification {
  const parse = parseOptions(argv.slice(1), { valued: "F", long: ["--field-separator="] });
  if (!parse.ok) return other(`awk ${parse.option}: ${parse.reason}`);
  const program = parse.positionals[0];
  if (program === undefined) return other("awk without a program");
  if (!isTrivialAwkProgram(program)) {
    // Every string in a program that redirects output may be the file it writes (print > ".git/config").
    const literals = /[>|]/.test(program)
      ? [...program.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => match[1] as string)
      : [];
    const written: PathUse[] = literals
      .filter((text) => text !== "")
      .map((value) => ({ value, access: "write", output: true }));
    return other("awk programs can run commands and write files", [
      ...written,
      ...positionalUses(argv, parse.positionalIndexes, "read", 1),
    ]);
  }
  if (parse.positionals.slice(1).some((arg) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(arg)))
    return other("awk variable assignments among the files");
  return { kind: "read-only", reason: "", paths: positionalUses(argv, parse.positionalIndexes, "read", 1) };
}

/**
 * What makes a jq filter more than a transformation of its input: modules (import/include, which read
 * files from search paths the filter names), the environment ($ENV, env, also written `$ ENV`), jq's
 * own variables ($__loc__, $__prog_args...) and the functions that look at the module system.
 */
const JQ_REACHES_OUT =
  /\$\s*(?:ENV\b|__)|(?<![.\w$])(?:env|import|include|modulemeta|get_search_list|get_prog_origin|get_jq_origin|input_filename|\$__prog_args)(?![\w])/;

export function classifyJq(argv: readonly string[]): Classification {
  const rest: string[] = [];
  const indexes: number[] = [];
  const paths: PathUse[] = [];
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--arg" || arg === "--argjson") {
      i += 2;
      continue;
    }
    if (arg === "--slurpfile" || arg === "--rawfile") {
      paths.push({ value: argv[i + 2] ?? "", index: i + 2, access: "read" });
      i += 2;
      continue;
    }
    // A filter read from a file (-f /dev/stdin too) or modules from a library path are not inspected.
    if (arg === "-f" || arg === "--from-file" || (/^-[a-zA-Z]*f/.test(arg) && !arg.startsWith("--")))
      return other("jq reads its filter from a file, which is not inspected");
    if (arg === "-L" || arg.startsWith("-L") || arg.startsWith("--library-path"))
      return other("jq -L loads modules from a folder");
    if (arg === "--indent") {
      i++;
      continue;
    }
    rest.push(arg);
    indexes.push(i);
  }
  const parse = parseOptions(rest, {
    flags: "rjacCMSensRh",
    long: words(
      "--raw-output --raw-output0 --join-output --ascii-output --compact-output --color-output",
      "--monochrome-output --sort-keys --exit-status --null-input --slurp --raw-input --tab",
      "--seq --stream --stream-errors --args --jsonargs",
    ),
  });
  if (!parse.ok) return other(`jq ${parse.option}: ${parse.reason}`);
  if (hasOption(parse, "--args", "--jsonargs")) return other("jq --args takes positional values");
  const filter = parse.positionals[0] ?? "";
  // jq reads `# ...` to the end of the line as a comment: `$ # x\nENV` is $ENV.
  if (JQ_REACHES_OUT.test(filter) || JQ_REACHES_OUT.test(filter.replace(/#[^\n]*/g, " ")))
    return other("this jq filter reads the environment or files beyond its input");
  const files = parse.positionalIndexes.slice(1).map((at) => indexes[at] as number);
  for (const index of files) paths.push({ value: argv[index] as string, index, access: "read" });
  return { kind: "read-only", reason: "", paths };
}
