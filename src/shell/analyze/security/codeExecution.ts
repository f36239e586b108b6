// Builtins that run text as shell code or rewire the shell for what follows.
import type { CommandCheck } from "./types.ts";

const CODE_BUILTINS: Record<string, string> = {
  eval: "eval runs its arguments as shell code",
  source: "source runs a file as shell code in this shell",
  ".": ". runs a file as shell code in this shell",
  exec: "exec replaces the shell or rewires its file descriptors for the rest of the command",
  trap: "trap runs code when a signal or exit happens",
  alias: "alias changes what a command name runs",
  enable: "enable can load builtins from shared libraries",
  bind: "bind changes key bindings and can bind shell commands",
  fc: "fc re-runs commands from the history",
  coproc: "coproc starts a command in the background connected to the shell",
};

export const codeExecution: CommandCheck = {
  id: "code-execution",
  stage: "command",
  description:
    "eval, source, exec, trap and similar builtins run text as code or change what later commands do",
  run: (view) => {
    if (view.wrappers.includes("exec")) return CODE_BUILTINS.exec;
    const name = view.argv[0];
    if (name === undefined) return undefined;
    const reason = CODE_BUILTINS[name];
    if (reason) return reason;
    if (name === "hash" && view.argv.includes("-p")) return "hash -p maps a command name to any program";
    if ((name === "complete" || name === "compgen") && view.argv.some((arg) => /^-[A-Za-z]*[CF]/.test(arg)))
      return `${name} -C/-F runs a command or function for completions`;
    return undefined;
  },
  examples: {
    trigger: [
      'eval "rm -rf x"',
      "source ./env.sh",
      ". ./env.sh",
      "exec rm -rf x",
      "exec > out.txt",
      "trap 'rm x' EXIT",
      "builtin eval x",
      "command eval x",
      "hash -p /tmp/x ls",
      "alias ls='rm -rf'",
    ],
    pass: ["echo eval", "ls source", "hash", "git log --format=exec", "command -v eval"],
  },
};
