// Every command a bash string can run, as far as it can be seen: nested in substitutions and
// compound statements, in code strings given to shells (bash -c, eval, env -S, heredocs to sh),
// behind wrappers, and after find -exec / fd -x. Deny and ask rules and the safety checks use this.
import type { Node } from "web-tree-sitter";
import { LruMap } from "../../tool/lruMap.ts";
import { commandFormsForDenyRules, resolvedForms } from "./denyForms.ts";
import { segmentRegex } from "./expand.ts";
import { extractEveryCommand } from "./grammar/everyCommand.ts";
import type { ExtractedCommand } from "./grammar/extractedCommand.ts";
import { withBashTree } from "./grammar/parse.ts";
import { isShell, SHELLS } from "./programs.ts";

const MAX_DEPTH = 4;

/** Code strings inside one command form: `bash -c STR`, `eval ...`, `env -S STR`, heredocs to shells. */
export function embeddedCode(form: readonly string[], command: ExtractedCommand): string[] {
  const [name, ...args] = form;
  if (name === undefined) return [];
  if (name === "eval") return [args.join(" ")];
  if (name === "watch") return [args.filter((arg) => !arg.startsWith("-")).join(" ")];
  if (
    isShell(name) ||
    name === "su" ||
    name === "runuser" ||
    name === "emulate" ||
    name === "script" ||
    name === "flock"
  ) {
    const c = args.findIndex((arg) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg) || arg === "--command");
    if (c !== -1) {
      const code = args.slice(c + 1).find((arg) => !arg.startsWith("-"));
      return code === undefined ? [] : [code];
    }
    if (!isShell(name)) return [];
    return command.redirects.flatMap((redirect) => {
      if (redirect.heredoc) return [redirect.heredoc.body];
      if (redirect.op === "<<<" && redirect.target) return [redirect.target.value];
      return [];
    });
  }
  if (name === "env") {
    const codes: string[] = [];
    args.forEach((arg, i) => {
      // -S takes the rest of its word, or the next word: also inside a bundle (-vS 'cmd').
      if (/^-[a-zA-Z]*S$/.test(arg) || arg === "--split-string") codes.push(args[i + 1] ?? "");
      else if (arg.startsWith("--split-string=")) codes.push(arg.slice(15));
      else if (/^-[a-zA-Z]*S./.test(arg)) codes.push(arg.slice(arg.indexOf("S") + 1));
    });
    return codes;
  }
  if (name === "git") {
    return args.flatMap((arg) => {
      const bang = arg.indexOf("=!");
      return arg.startsWith("alias.") && bang !== -1
        ? [arg.slice(bang + 2)]
        : arg.startsWith("!")
          ? [arg.slice(1)]
          : [];
    });
  }
  return [];
}

/** What printf prints for a format and its arguments, as far as matters for code: %s/%b filled, escapes read. */
function printfText(args: readonly string[]): string {
  const [format = "", ...values] = args;
  let next = 0;
  const filled = format.replace(/%[sb]/g, () => values[next++] ?? "");
  return filled.replace(/\\n/g, "\n").replace(/\\t/g, "\t");
}

/**
 * `echo 'code' | sh`: a shell without -c reads its code from the pipe. When the command before it
 * in the pipeline is echo or printf, that code is known.
 */
function pipedCode(
  form: readonly string[],
  command: ExtractedCommand,
  previous?: ExtractedCommand,
): string[] {
  const [name, ...args] = form;
  if (!command.pipedInput || previous === undefined || name === undefined || !isShell(name)) return [];
  if (args.some((arg) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg))) return [];
  const [producer, ...words] = previous.simple.argv;
  if (producer === "echo") return [words.filter((word) => !/^-[neE]+$/.test(word)).join(" ")];
  if (producer === "printf") return [printfText(words)];
  return [];
}

/** The commands after find's -exec/-execdir/-ok/-okdir and fd's -x/-X. */
function runPerFile(form: readonly string[]): string[][] {
  const [name, ...args] = form;
  const found: string[][] = [];
  if (name === "find") {
    for (let i = 0; i < args.length; i++) {
      if (!["-exec", "-execdir", "-ok", "-okdir"].includes(args[i] as string)) continue;
      const end = args.findIndex((arg, j) => j > i && (arg === ";" || arg === "+"));
      found.push(args.slice(i + 1, end === -1 ? undefined : end));
    }
  } else if (name === "fd" || name === "fdfind") {
    const at = args.findIndex((arg) => /^(-x|-X|--exec|--exec-batch)$/.test(arg));
    if (at !== -1) found.push(args.slice(at + 1));
  }
  return found.filter((argv) => argv.length > 0);
}

export interface DeepScan {
  /** Every command found, at every depth. */
  commands: ExtractedCommand[];
  /** The commands found inside code strings (bash -c, eval, heredocs to shells...). */
  nested: ExtractedCommand[];
  /** Every argv form a deny or ask rule is tried on. */
  forms: string[][];
}

/** Programs that run code they are given; a globbed program name (`/bin/s?`) may be any of them. */
const CODE_RUNNERS = [
  ...SHELLS,
  "eval",
  "watch",
  "su",
  "runuser",
  "emulate",
  "script",
  "flock",
  "env",
  "git",
];

/** The form as each code-running program its globbed name could match. */
function globbedRunners(form: readonly string[]): string[][] {
  const name = form[0];
  if (name === undefined || !/[*?[]/.test(name)) return [];
  const pattern = segmentRegex(name.slice(name.lastIndexOf("/") + 1));
  return CODE_RUNNERS.filter((runner) => pattern.test(runner)).map((runner) => [runner, ...form.slice(1)]);
}

function scanCommands(commands: readonly ExtractedCommand[], depth: number, into: DeepScan): void {
  commands.forEach((command, index) => {
    into.commands.push(command);
    if (depth > 0) into.nested.push(command);
    const pending = [command.simple.argv];
    for (let guard = 0; guard < 64 && pending.length > 0; guard++) {
      const argv = pending.pop() as string[];
      for (const form of commandFormsForDenyRules(argv)) {
        into.forms.push(form);
        pending.push(...runPerFile(form));
        if (depth >= MAX_DEPTH) continue;
        for (const named of [form, ...globbedRunners(form)]) {
          const codes = [...embeddedCode(named, command), ...pipedCode(named, command, commands[index - 1])];
          for (const code of codes) collect(code, depth + 1, into);
        }
      }
    }
  });
}

function collect(source: string, depth: number, into: DeepScan): void {
  scanCommands(
    withBashTree(source, (root) => extractEveryCommand(root, source)),
    depth,
    into,
  );
}

const cache = new LruMap<string, DeepScan>(256);

/**
 * All commands and rule forms of a bash string (cached; the parser must be initialised). A caller
 * that already parsed the string passes its tree, or, when the string is plain commands only, its
 * commands, so the string is not parsed twice.
 */
export function deepScan(
  source: string,
  parsed: { root?: Node; commands?: readonly ExtractedCommand[] } = {},
): DeepScan {
  const cached = cache.get(source);
  if (cached) return cached;
  const scan: DeepScan = { commands: [], nested: [], forms: [] };
  if (parsed.commands) scanCommands(parsed.commands, 0, scan);
  else if (parsed.root) scanCommands(extractEveryCommand(parsed.root, source), 0, scan);
  else collect(source, 0, scan);
  // bash removes backslash-newline before splitting words; the grammar does not, so scan both.
  if (source.includes("\\\n")) collect(source.replace(/\\\n/g, ""), 0, scan);
  scan.forms.push(...resolvedForms(scan));
  cache.set(source, scan);
  return scan;
}

/** Empties the scan cache (benchmarks measure uncached cost). */
export function resetDeepScanCache(): void {
  cache.clear();
}
