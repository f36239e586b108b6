// Control characters (CR, NUL, escape, C1) make the command display differently from what runs.
import type { TextCheck } from "./types.ts";

// Tab and newline are ordinary shell whitespace; every other C0/C1 control character is suspicious.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f]/;

export const controlCharacters: TextCheck = {
  id: "control-characters",
  stage: "text",
  description: "carriage returns and other control characters can hide parts of a command from view",
  run: (command) => {
    const match = command.match(CONTROL);
    if (!match) return undefined;
    const code = (match[0].codePointAt(0) ?? 0).toString(16).padStart(2, "0");
    return `the command contains the control character U+00${code.toUpperCase()}${code === "0d" ? " (carriage return)" : ""}`;
  },
  examples: {
    trigger: ["ls\rrm -rf src", "echo a\x00b", "echo \x1b[2Jhi", "ls\x0bx", "echo \u0085"],
    pass: ["ls -la", "echo 'a\tb'", "git log\t--oneline"],
  },
};
