// Files a command writes through its own options, which an allow rule naming the command never
// covers (a rule names a command, not the files it is told to write): sort -o, git diff --output,
// sed w, and, for programs the analyzer does not know, the usual output options (gcc -o, curl -o,
// wget -O, tsc --outFile).

import { COMMAND_SPECS, WRITE_COMMANDS } from "./commandSpecs.ts";
import type { CommandView } from "./commandView.ts";
import { classifyCommand } from "./readOnly.ts";

const OUTPUT_OPTION =
  /^(-o|-O|--?out|--?output|--?out-?file|--?output-?file|--?out-?dir|--?output-?dir|--?log-?file)$/i;
const KNOWN_PROGRAMS = new Set([
  "git",
  "sed",
  "awk",
  "gawk",
  "mawk",
  "nawk",
  "jq",
  "find",
  "rg",
  "fd",
  "ps",
  "ln",
  "npm",
]);

/** Output options of a program the analyzer has no table for: `-o x`, `-ox`, `--output=x`, `--outFile x`. */
function guessedOutputs(argv: readonly string[]): string[] {
  const found: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.indexOf("=");
    if (eq > 0 && OUTPUT_OPTION.test(arg.slice(0, eq))) found.push(arg.slice(eq + 1));
    else if (OUTPUT_OPTION.test(arg) && i + 1 < argv.length) found.push(argv[++i] as string);
    else if (/^-o[^-=]/.test(arg)) found.push(arg.slice(2));
  }
  return found;
}

/** The files one command writes through options or scripts (not its redirects, not its positional targets). */
export function commandOutputs(view: CommandView): string[] {
  const name = view.argv[0] ?? "";
  const classification = classifyCommand(view.argv);
  const outputs = classification.paths.filter((use) => use.output).map((use) => use.value);
  const known = name in COMMAND_SPECS || WRITE_COMMANDS.has(name) || KNOWN_PROGRAMS.has(name);
  if (!known) outputs.push(...guessedOutputs(view.argv));
  return outputs;
}
