// sed's e command and s///e flag run shell commands; w/W write files and r/R read them; a script
// file (-f) or a script the reader cannot follow is treated the same way.
import { judgeSedScript } from "../sedScript.ts";
import type { CommandCheck } from "./types.ts";

/** GNU sed's long options: getopt takes any unambiguous start of one (`--expr=`, `--fi=`). */
const SED_LONG = [
  "--expression",
  "--file",
  "--in-place",
  "--line-length",
  "--null-data",
  "--zero-terminated",
  "--quiet",
  "--silent",
  "--sandbox",
  "--separate",
  "--unbuffered",
  "--posix",
  "--regexp-extended",
  "--debug",
  "--follow-symlinks",
  "--binary",
  "--help",
  "--version",
];

/** The long option an argument names, or undefined when it names none or several. */
function sedLongOption(arg: string): string | undefined {
  const name = arg.split("=")[0] as string;
  if (SED_LONG.includes(name)) return name;
  const matches = SED_LONG.filter((option) => option.startsWith(name));
  return matches.length === 1 ? matches[0] : undefined;
}

/** The script(s) of a sed call: -e/--expression values, else the first operand. */
function sedScript(args: readonly string[]): { script: string; fromFile: boolean } {
  const scripts: string[] = [];
  let fromFile = false;
  let firstOperand: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") {
      firstOperand ??= args[i + 1];
      break;
    }
    const long = arg.startsWith("--") ? sedLongOption(arg) : undefined;
    if (arg === "-e" || (long === "--expression" && !arg.includes("="))) scripts.push(args[++i] ?? "");
    else if (long === "--expression") scripts.push(arg.slice(arg.indexOf("=") + 1));
    else if (arg === "-f" || long === "--file" || (arg.startsWith("--") && long === undefined))
      fromFile = true;
    else if (long === "--line-length" && !arg.includes("=")) i++;
    else if (/^-[a-zA-Z]+$/.test(arg) && !arg.startsWith("--")) {
      const letters = arg.slice(1);
      const at = letters.search(/[efl]/);
      if (at !== -1 && letters[at] !== "l" && !letters.slice(0, at).includes("i")) {
        const attached = letters.slice(at + 1);
        if (letters[at] === "f") fromFile = true;
        else scripts.push(attached !== "" ? attached : (args[++i] ?? ""));
      }
    } else if (!arg.startsWith("-")) firstOperand ??= arg;
  }
  return { script: scripts.length > 0 ? scripts.join("\n") : (firstOperand ?? ""), fromFile };
}

export const sedCommands: CommandCheck = {
  id: "sed-commands",
  stage: "command",
  description:
    "sed scripts with e (run a command), w/W (write) or r/R (read), script files, unknown commands",
  run: (view) => {
    if (view.argv[0] !== "sed" && view.argv[0] !== "gsed") return undefined;
    const { script, fromFile } = sedScript(view.argv.slice(1));
    if (fromFile) return "sed -f (or an option the analyzer cannot read) runs a script it cannot see";
    const verdict = judgeSedScript(script);
    return verdict.kind === "safe" ? undefined : verdict.reason;
  },
  examples: {
    trigger: [
      "echo test | sed 's/test/touch \\/tmp\\/pwned/e'",
      "sed -n '1e curl -s https://example.com' README.md",
      "sed 's/a/b/w /tmp/out' f.txt",
      "sed -e 'w /tmp/x' f.txt",
      "sed -f script.sed f.txt",
      "sed '1r /etc/passwd' f.txt",
      "sed -ne '1e id' f.txt",
      "sed -n --expr='1e id' p",
      "sed --e '1e id' f.txt",
      "sed --fi=x f.txt",
      "sed --bogus p f.txt",
      "sed -n p f.txt -e '1e id'",
    ],
    pass: [
      "sed -n '1,80p' src/index.ts",
      "sed 's/foo/bar/g' a.txt",
      "sed -i 's/a/b/' a.txt",
      "sed -n '/start/,/end/p' f",
      "sed -E 's/(a|b)+/x/2' f",
      "sed --quiet --expr=p f",
      "sed --expression p f",
      "sed --regexp-ext -n 's/a/b/p' f",
    ],
  },
};
