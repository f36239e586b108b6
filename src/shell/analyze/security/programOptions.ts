// Options that make an ordinary program start another program: man --html/-P, rg --pre, sort
// --compress-program, tar --to-command, rsync -e, ssh -o ProxyCommand... GNU-style abbreviations count.
import { namesLongOption } from "../options.ts";
import type { CommandCheck } from "./types.ts";

interface Dangerous {
  long: readonly string[];
  /** Short option letters (found anywhere in a bundle). */
  short?: string;
  exact?: readonly string[];
}

const DANGEROUS_OPTIONS: Readonly<Record<string, Dangerous>> = {
  man: { long: ["--html", "--pager", "--preprocessor", "--gxditview", "--config-file"], short: "HPpXC" },
  rg: { long: ["--pre", "--hostname-bin", "--search-zip"], short: "z" },
  sort: { long: ["--compress-program"] },
  tar: {
    long: [
      "--to-command",
      "--use-compress-program",
      "--checkpoint-action",
      "--info-script",
      "--new-volume-script",
      "--rsh-command",
      "--rmt-command",
    ],
    short: "IF",
  },
  rsync: { long: ["--rsh", "--rsync-path"], short: "e" },
  zip: { long: ["--unzip-command"], exact: ["-TT"] },
  sdiff: { long: ["--diff-program"] },
  diff3: { long: ["--diff-program"] },
  tcpdump: { long: [], short: "z" },
  nmap: { long: ["--script"] },
  less: { long: ["--lesskey-file", "--lesskey-src"], short: "k" },
  scp: { long: [], short: "S" },
  sftp: { long: [], short: "S" },
};

/** ssh-style `-o Name=value` options that run local commands. */
const SSH_COMMAND_OPTIONS =
  /^(proxycommand|localcommand|permitlocalcommand|knownhostscommand|remotecommand|proxyusefdpass)/i;

function sshOptionReason(name: string, args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const value = arg === "-o" ? args[i + 1] : arg.startsWith("-o") ? arg.slice(2) : undefined;
    if (value !== undefined && SSH_COMMAND_OPTIONS.test(value.trim()))
      return `${name} -o ${value.slice(0, 40)} runs a local command`;
    if (arg === "-F") return `${name} -F reads a config file that can run commands`;
  }
  return undefined;
}

export const programOptions: CommandCheck = {
  id: "program-options",
  stage: "command",
  description:
    "options that make a program run another program (man --html, rg --pre, sort --compress-program...)",
  run: (view) => {
    const [name, ...args] = view.argv;
    if (name === undefined) return undefined;
    if (["ssh", "scp", "sftp", "rsync"].includes(name)) {
      const reason = sshOptionReason(name, args);
      if (reason) return reason;
    }
    // less +cmd runs a less command at start: `!` and `|` hand text to a shell.
    if ((name === "less" || name === "more") && args.some((arg) => arg.startsWith("+") && /[!|]/.test(arg)))
      return `${name} +command runs a shell command`;
    const dangerous = DANGEROUS_OPTIONS[name];
    if (!dangerous) return undefined;
    for (const arg of args) {
      if (arg === "--") break;
      if (dangerous.exact?.includes(arg)) return `${name} ${arg} runs another program`;
      if (arg.startsWith("--")) {
        const hit = dangerous.long.find((option) => namesLongOption(arg, option));
        if (hit) return `${name} ${arg.split("=")[0]} (${hit}) runs another program`;
        continue;
      }
      if (arg.startsWith("-") && dangerous.short) {
        const letter = [...arg.slice(1)].find((char) => dangerous.short?.includes(char));
        if (letter) return `${name} -${letter} runs another program`;
      }
    }
    return undefined;
  },
  examples: {
    trigger: [
      'man --html="touch /tmp/pwned" man',
      "man -P 'sh -c id' ls",
      "rg --pre=sh foo",
      "rg --pre sh foo",
      "rg -z foo",
      "rg --hostname-bin=/tmp/x foo",
      "sort --compress-program=sh f",
      "sort --compress-prog=sh f",
      "tar --to-command='sh' -xf a.tar",
      "rsync -e 'sh -c id' a b",
      "ssh -o ProxyCommand='id' host",
      "zip -TT 'id' a.zip f",
      "less +'!id' README.md",
      "more '+|id' README.md",
    ],
    pass: [
      "man ls",
      "man -k printf",
      "rg -n foo src",
      "rg --pretty foo",
      "sort -rn f",
      "tar -tf a.tar",
      "ssh -o BatchMode=yes host",
      "less +G README.md",
      "less +/TODO README.md",
    ],
  },
};
