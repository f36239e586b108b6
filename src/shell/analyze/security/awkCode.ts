// awk programs can call system(), pipe to commands and write files; only trivial print programs pass.
import { isTrivialAwkProgram } from "../awkProgram.ts";
import type { CommandCheck } from "./types.ts";

const AWKS = new Set(["awk", "gawk", "mawk", "nawk"]);

export const awkCode: CommandCheck = {
  id: "awk-program",
  stage: "command",
  description: "awk programs other than trivial field printing (system(), pipes, redirection, -f files)",
  run: (view) => {
    const [name, ...args] = view.argv;
    if (name === undefined || !AWKS.has(name)) return undefined;
    let i = 0;
    for (; i < args.length; i++) {
      const arg = args[i] as string;
      if (arg === "--") {
        i++;
        break;
      }
      if (arg === "-F") {
        i++;
        continue;
      }
      if (/^-F./.test(arg) || arg.startsWith("--field-separator=")) continue;
      if (arg.startsWith("-"))
        return `${name} ${arg} is not known to be safe (-f runs a program file, -v sets variables)`;
      break;
    }
    const program = args[i];
    if (program === undefined) return `${name} without a program`;
    return isTrivialAwkProgram(program)
      ? undefined
      : `${name} programs can run commands and write files; this one is not a plain print`;
  },
  examples: {
    trigger: [
      "awk 'BEGIN{system(\"whoami\")}' ./README.md",
      "echo x | awk '{system(\"env > /tmp/x\")}'",
      'awk \'BEGIN{print "x" > ".mcp.json"}\' f',
      "awk '{print | \"sh\"}' f",
      "awk -f prog.awk f",
      "awk '{ \"id\" | getline x }' f",
    ],
    pass: [
      "awk '{print $1}' f.txt",
      "awk -F: '{print $1, $NF}' f",
      "awk 'NR>1 {print $2}' f",
      "awk '/error/' log.txt",
    ],
  },
};
