// Arguments of a program the analyzer does not know, read as paths it may read or write.
import { resolve } from "node:path";
import { systemFolderOf } from "../../permissions/paths.ts";
import type { CommandView } from "./commandView.ts";
import { expandTilde, expandWord } from "./expand.ts";
import { unknownPath } from "./pathCheck.ts";
import { checkArgumentRules } from "./pathRuleFindings.ts";
import { add, expansionOptions, protectedReasonOf, type Scope, variableChange } from "./pathScope.ts";
import { HARMLESS_DEVICES } from "./redirects.ts";

/**
 * What in one argument of an unknown program may be a path: the word; the value after `=`
 * (`--file=x`, dd's `if=x`); a value glued to a short option (`-o.git/config`, `-xvf.git`); and
 * without a leading `@` (`curl -d @.env`).
 */
function argumentPaths(arg: string): string[] {
  const found: string[] = [];
  if (!arg.startsWith("-")) found.push(arg);
  if (arg.includes("=")) found.push(arg.slice(arg.indexOf("=") + 1));
  // A file URL names a local file (`curl file:///etc/passwd`, `--url=file://localhost/x`).
  const url = arg.match(/(?:^|=)file:(?:\/\/(?:localhost)?)?(\/[^?#]*)/i);
  if (url) found.push(decodeURIComponentSafely(url[1] as string));
  const short = arg.match(/^-([A-Za-z]+)(.+)$/);
  if (short && !arg.startsWith("--"))
    for (let i = 1; i <= (short[1] as string).length; i++) found.push(arg.slice(1 + i));
  return [
    ...new Set(found.flatMap((path) => (path.startsWith("@") ? [path, path.slice(1)] : [path]))),
  ].filter((path) => path !== "");
}

function decodeURIComponentSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Programs that read the current folder whole when given no folder: after a pattern (grep -R x, ag x), or at all (du). */
const PATTERN_SEARCHERS = new Set("grep egrep fgrep rgrep rg ag ack ack-grep ugrep ug pt sift".split(" "));
const FOLDER_READERS = new Set("tree du fd fdfind find ls".split(" "));

/** Whether a program the analyzer does not understand may read the current folder without naming it. */
function readsCurrentFolder(argv: readonly string[]): boolean {
  const name = argv[0] ?? "";
  const operands = argv.slice(1).filter((arg) => !arg.startsWith("-")).length;
  return (PATTERN_SEARCHERS.has(name) && operands <= 1) || (FOLDER_READERS.has(name) && operands === 0);
}

/** One argument of an unknown program, as a path it may read or write: Read/Edit rules, protected paths. */
function checkUnknownPath(path: string, cwd: string, name: string, scope: Scope): void {
  const abs = resolve(cwd, path);
  if (HARMLESS_DEVICES.test(abs)) return;
  checkArgumentRules(abs, cwd, name, scope);
  if (systemFolderOf(abs, scope.context.caller.tmpDir)) return;
  const reason = protectedReasonOf(abs, cwd, scope);
  if (reason) add(scope, { check: "protected-path", reason: `${name} may write ${reason}`, safety: true });
}

/**
 * Arguments of a command the analyzer does not know: any may be a file it reads or writes, as bash
 * expands it (globs, braces, `~`), and a searcher given no folder reads the current one.
 */
export function checkUnknownArguments(view: CommandView, scope: Scope): void {
  const written = view.written.simple.argv;
  const name = written[0] ?? "";
  if (readsCurrentFolder(view.argv)) for (const cwd of scope.cwds) checkUnknownPath(".", cwd, name, scope);
  for (let i = 1; i < written.length; i++) {
    const arg = written[i] as string;
    const word = view.written.words[i];
    if (word?.dynamic || word?.unknown) continue;
    for (const candidate of argumentPaths(arg)) {
      for (const cwd of scope.cwds) {
        // The whole word is expanded by bash; a value inside an option word only has its `~` read.
        const whole = candidate === arg && !arg.startsWith("-");
        const readsTilde = word?.tilde || candidate.startsWith("~");
        const home = readsTilde && /^~(\/|$)/.test(candidate) ? variableChange(scope, "HOME") : undefined;
        if (home) {
          unknownPath(
            "dynamic-path",
            `${name}: ${candidate} depends on HOME, which ${home} may have set`,
            "write",
            scope,
          );
          continue;
        }
        const expansion = whole ? expandWord(word, arg, expansionOptions(scope, cwd)) : undefined;
        if (expansion?.kind === "unknown") {
          unknownPath(expansion.check, `${name}: ${expansion.reason}`, "read", scope, false);
          unknownPath(expansion.check, `${name}: ${expansion.reason}`, "write", scope, false);
          continue;
        }
        const tilde = readsTilde ? expandTilde(candidate, scope.context.caller.home) : candidate;
        const paths = expansion ? expansion.paths : tilde === undefined ? [] : [tilde];
        for (const path of paths) if (path !== "") checkUnknownPath(path, cwd, name, scope);
      }
    }
  }
}
