// Programs that run code given to them: shells and language interpreters, by name.
import { words } from "./options.ts";

export const SHELLS = new Set(
  words("sh bash zsh dash ksh mksh pdksh fish csh tcsh ash yash rbash elvish nu xonsh"),
);

const INTERPRETER_NAMES = new Set(
  words(
    "python python2 python3 pypy pypy3 node nodejs deno bun perl ruby irb php lua luajit",
    "Rscript R tclsh wish expect osascript pwsh powershell julia groovy jshell scala kotlin",
    "kotlinc ghci runghc erl elixir iex sqlite3 psql mysql gdb lldb vim vi nvim ex view emacs",
    "ed busybox awk gawk mawk nawk php-cgi racket guile sbcl clisp ocaml swift dotnet-script",
    "csi jjs rhino dc at batch tmux screen crontab",
  ),
);

const VERSIONED = /^(python|pypy|perl|ruby|php|lua|node|tclsh|wish)\d+(\.\d+)*$/;

export function isShell(name: string): boolean {
  return SHELLS.has(name);
}

export function isInterpreter(name: string): boolean {
  return SHELLS.has(name) || INTERPRETER_NAMES.has(name) || VERSIONED.test(name);
}

/** The interpreter family of a versioned name: python3.12 -> python. */
export function interpreterFamily(name: string): string {
  const match = name.match(/^(python|pypy|perl|ruby|php|lua|node|nodejs|tclsh|wish)/);
  if (!match) return name;
  return match[1] === "nodejs" ? "node" : (match[1] as string);
}

/** Programs that run another command as a different (usually more powerful) user. */
export const PRIVILEGE_COMMANDS: ReadonlySet<string> = new Set(
  words("sudo doas su pkexec runuser run0 sudoedit"),
);

/** Programs whose purpose is to delete files: their targets are checked as removals. */
export const REMOVERS: ReadonlySet<string> = new Set(
  words("rm rmdir shred unlink srm trash trash-put zf_rm zf_rmdir"),
);

/**
 * Package runners: programs (or their subcommands) that fetch or look up a package or script by name and
 * run it. An empty list: the program itself runs what it is given (npx); else the subcommands that do.
 */
export const PACKAGE_RUNNERS: Readonly<Record<string, readonly string[]>> = {
  npx: [],
  pnpx: [],
  bunx: [],
  uvx: [],
  npm: words("exec x run run-script"),
  pnpm: words("dlx exec run"),
  yarn: words("dlx exec run node"),
  bun: words("x run exec"),
  deno: words("run eval"),
  pipx: words("run"),
  uv: words("run tool"),
  poetry: words("run"),
  cargo: words("run"),
  go: words("run"),
};
