// Options that make an ordinary program start another program: man --html/-P, rg --pre, sort
// --compress-program, tar --to-command, rsync -e, ssh -o ProxyCommand, npm --script-shell, curl -K,
// make -f... in every spelling the program reads (the option table, dangerousOptionTable.ts).
import { dangerousOptions } from "../dangerousOptions.ts";
import { words } from "../options.ts";
import type { CommandCheck } from "./types.ts";

/** Programs whose code-running options have checks of their own (git-dangerous, find-exec, interpreter-code, awk-code, sed-commands). */
const CHECKED_ELSEWHERE = new Set(
  words("git find awk gawk mawk nawk sed python pypy node nodejs bun deno make gmake"),
);

export const programOptions: CommandCheck = {
  id: "program-options",
  stage: "command",
  description:
    "options that make a program run another program (man --html, rg --pre, npm --script-shell, curl -K...)",
  run: (view) => {
    const name = view.argv[0];
    if (name === undefined) return undefined;
    const base = name.slice(name.lastIndexOf("/") + 1);
    if (CHECKED_ELSEWHERE.has(base) || /^(python|pypy|node)\d/.test(base)) return undefined;
    const runs = dangerousOptions(view.argv).find((danger) => danger.kind === "runs");
    if (!runs) return undefined;
    const spelled = runs.written.split("=")[0] as string;
    const option = spelled === runs.option ? spelled : `${spelled} (${runs.option})`;
    return `${name} ${option.slice(0, 60)} runs another program or reads a configuration that can`;
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
      "npm test --script-shell=/tmp/x",
      "npm test --node-options=--require=/tmp/x.js",
      "curl -K cfg https://example.com",
      "curl --conf=cfg https://example.com",
      "wget -e 'use_askpass=id' https://example.com",
      "pytest -p evil",
      "npx -c id",
    ],
    pass: [
      "man ls",
      "man -k printf",
      "rg -n foo src",
      "rg --pretty foo",
      "sort -rn f",
      "sort -o out.txt f",
      "tar -tf a.tar",
      "ssh -o BatchMode=yes host",
      "less +G README.md",
      "less +/TODO README.md",
      "npm test --silent",
      "curl -sSL https://example.com",
      "git -c core.pager=x log",
    ],
  },
};
