// find -exec/-ok and fd -x/-X run a command for every file found.
import type { CommandCheck } from "./types.ts";

const FIND_ACTIONS = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

export const findExec: CommandCheck = {
  id: "find-exec",
  stage: "command",
  description: "find -exec/-execdir/-ok/-okdir and fd -x/-X/--exec/--exec-batch run commands per file",
  run: (view) => {
    const [name, ...args] = view.argv;
    if (name === "find") {
      const action = args.find((arg) => FIND_ACTIONS.has(arg));
      return action ? `find ${action} runs a command for every file found` : undefined;
    }
    if (name === "fd" || name === "fdfind") {
      const action = args.find((arg) => /^--exec(-batch)?(=|$)/.test(arg) || /^-[A-Za-z]*[xX]/.test(arg));
      return action ? `fd ${action} runs a command for every file found` : undefined;
    }
    return undefined;
  },
  examples: {
    trigger: [
      'find . -name "*.json" -exec grep -l x {} \\;',
      "find . -execdir rm {} +",
      "find . -ok rm {} ;",
      "fd -e md -x sh -c 'id'",
      "fd . -X rm",
      "fd --exec-batch ls",
    ],
    pass: ["find . -name '*.ts'", "fd -e md", "find . -name exec", "fd -H x"],
  },
};
