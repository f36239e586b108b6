// Files a command writes through its own options or scripts, which an allow rule naming the command
// never covers (a rule names a command, not the files it is told to write): sort -o, git diff --output,
// sed w, awk's print > "x", and the output options of the option table (curl -o, wget -O, tsc --outDir;
// for programs with no table, the usual names: gcc -o, --output, --out-dir).
import type { CommandView } from "./commandView.ts";
import { dangerousOptions } from "./dangerousOptions.ts";
import { classifyCommand } from "./readOnly.ts";

/** The files one command writes through options or scripts (not its redirects, not its positional targets). */
export function commandOutputs(view: CommandView): string[] {
  const classification = classifyCommand(view.argv);
  const outputs = classification.paths.filter((use) => use.output).map((use) => use.value);
  for (const danger of dangerousOptions(view.argv))
    if (danger.kind === "writes" && danger.file !== undefined) outputs.push(danger.file);
  return [...new Set(outputs)];
}
