// Writes named by a command's options or made from its operands, judged like any other write: the file
// an output option names (`sort --outp=x`, `curl -w '%output{x}'`) and a name made from an argv word
// (`x.gz` from `x`, `dest/name` from scp's destination).
import type { CommandView } from "./commandView.ts";
import { dangerousOptions } from "./dangerousOptions.ts";
import { checkPath, unknownPath } from "./pathCheck.ts";
import type { Scope } from "./pathScope.ts";

/**
 * `value`, a file written, made from argv word `index`: a value that is the whole word is expanded as bash
 * expands it; one inside a word (an option's `=x`, a derived name) only has its `~` read.
 */
function checkWrittenName(view: CommandView, name: string, index: number, value: string, scope: Scope): void {
  const whole = view.argv[index] === value;
  checkPath(
    {
      value,
      word: whole ? view.words[index] : undefined,
      access: "write",
      commandName: name,
      bases: scope.cwds,
    },
    scope,
  );
}

/** A file named after an argv word (`x.gz` from `x`, `dest/name` from scp's destination), judged as a write. */
export function checkDerivedName(
  view: CommandView,
  name: string,
  path: { value: string; index: number },
  scope: Scope,
): void {
  const word = view.words[path.index];
  // The name is made from the word as bash expands it: one only known at run time, or a glob's, is unknown.
  if (word?.dynamic || word?.unknown || word?.glob || word?.brace) {
    unknownPath(
      "unknown-target",
      `${name} writes a file named after ${word.text}, only known at run time`,
      "write",
      scope,
    );
    return;
  }
  checkWrittenName(view, name, path.index, path.value, scope);
}

/** Files named by output options (`sort --outp=x`, `curl -w '%output{x}'`), judged as writes wherever they stand. */
export function checkOptionOutputs(view: CommandView, name: string, scope: Scope): void {
  for (const danger of dangerousOptions(view.argv)) {
    if (danger.kind !== "writes" || danger.file === undefined) continue;
    const word = view.words[danger.index];
    if (word?.dynamic || word?.unknown) {
      unknownPath(
        "dynamic-path",
        `${name} ${danger.option}: the file is only known at run time`,
        "write",
        scope,
      );
      continue;
    }
    checkWrittenName(view, name, danger.index, danger.file, scope);
  }
}
