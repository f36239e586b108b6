// zsh modules and builtins that open sockets, ptys and files or run code (zmodload, ztcp, zpty, zf_*).
import type { CommandCheck } from "./types.ts";

const ZSH_BUILTINS = new Set([
  "zmodload",
  "zpty",
  "ztcp",
  "zsocket",
  "zselect",
  "zsystem",
  "sysopen",
  "sysread",
  "syswrite",
  "sysseek",
  "zcompile",
  "emulate",
  "autoload",
  "zle",
  "zstyle",
  "zparseopts",
  "setopt",
  "unsetopt",
  "noglob",
  "vared",
]);

export const zshBuiltins: CommandCheck = {
  id: "zsh-builtins",
  stage: "command",
  description: "zsh module loading and the builtins modules add (sockets, ptys, file I/O, zf_* file tools)",
  run: (view) => {
    const name = view.argv[0];
    if (name === undefined) return undefined;
    return ZSH_BUILTINS.has(name) || name.startsWith("zf_")
      ? `${name} is a zsh builtin that can load modules or run code`
      : undefined;
  },
  examples: {
    trigger: [
      "zmodload zsh/system",
      "ztcp example.com 80",
      "zf_rm -rf x",
      "zpty x ls",
      "sysopen -w -u 3 f",
      "emulate sh -c 'ls'",
    ],
    pass: ["ls zmodload", "echo ztcp", "zip -r a.zip src"],
  },
};
