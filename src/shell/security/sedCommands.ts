// sed's e command and s///e flag run shell commands; w/W write files and r/R read them; a script
// file (-f) or a script the reader cannot follow is treated the same way.
import { judgeSedScript } from "../sedScript.ts";
import type { CommandCheck } from "./types.ts";

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
    if (arg === "-e" || arg === "--expression") scripts.push(args[++i] ?? "");
    else if (arg.startsWith("--expression=")) scripts.push(arg.slice(13));
    else if (arg === "-f" || arg.startsWith("--file")) fromFile = true;
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
    if (fromFile) return "sed -f runs a script file the analyzer cannot read";
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
    ],
    pass: [
      "sed -n '1,80p' src/index.ts",
      "sed 's/foo/bar/g' a.txt",
      "sed -i 's/a/b/' a.txt",
      "sed -n '/start/,/end/p' f",
      "sed -E 's/(a|b)+/x/2' f",
    ],
  },
};
