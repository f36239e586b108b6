// Where the links `ln -s` makes point: a link to a file outside the working directories, or to a
// protected one, is not an edit inside them (it asks unless bypassed).
import { dirname, resolve } from "node:path";
import { lstatOrUndefined, resolveSymlinks } from "../../permissions/paths.ts";
import type { CommandView } from "./commandView.ts";
import { expandWord } from "./expand.ts";
import { hasOption, optionValues, parseOptions } from "./options.ts";
import { add, expansionOptions, isInside, protectedReasonOf, type Scope } from "./pathScope.ts";
import { LN_SPEC } from "./readOnly.ts";
import { HARMLESS_DEVICES } from "./redirects.ts";

/**
 * What `ln -s` makes its links point to: a link to a file outside the working directories, or to a
 * protected one, is not an edit inside them (it asks unless bypassed). The target is read from the
 * link's folder, as the kernel reads it (from the shell's folder with -r, which writes it relative).
 */
export function checkLinkTargets(view: CommandView, scope: Scope): void {
  const parse = parseOptions(view.argv.slice(1), LN_SPEC);
  if (!parse.ok || !hasOption(parse, "-s", "--symbolic")) return;
  const targetDir = optionValues(parse, "-t", "--target-directory")[0];
  const indexes = parse.positionalIndexes.map((at) => at + 1);
  const targets = targetDir === undefined && indexes.length > 1 ? indexes.slice(0, -1) : indexes;
  const name = targetDir ?? (indexes.length > 1 ? view.argv[indexes.at(-1) as number] : ".");
  const relative = hasOption(parse, "-r", "--relative");
  for (const cwd of scope.cwds) {
    const named = resolve(cwd, name ?? ".");
    const folder =
      targetDir !== undefined || name === "." || lstatOrUndefined(resolveSymlinks(named))?.isDirectory()
        ? named
        : dirname(named);
    for (const index of targets) {
      const word = view.words[index];
      const expansion = expandWord(word, view.argv[index] as string, expansionOptions(scope, cwd));
      if (expansion.kind === "unknown") {
        add(scope, { check: "link-target", reason: `ln -s: ${expansion.reason}`, safety: false });
        continue;
      }
      for (const path of expansion.paths) {
        const target = resolve(relative ? cwd : folder, path);
        if (HARMLESS_DEVICES.test(target)) continue;
        const protectedReason = protectedReasonOf(target, cwd, scope);
        if (protectedReason)
          add(scope, {
            check: "link-target",
            reason: `ln -s makes a link to a protected path (${protectedReason})`,
            safety: false,
          });
        else if (!isInside(target, scope))
          add(scope, {
            check: "link-target",
            reason: `ln -s makes a link to ${target}, outside the working directories`,
            safety: false,
          });
      }
    }
  }
}
