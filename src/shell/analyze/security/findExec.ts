// find -exec/-ok and fd -x/-X run a command for every file found; a find -exec command that only
// reads each file it is given (cat, grep, wc...) is as read-only as the reads it makes (foundFiles.ts).
import { findNames } from "../foundFiles.ts";
import { classifyCommand } from "../readOnly.ts";
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
      if (!action || findNames(args, classifyCommand)) return undefined;
      return `find ${action} runs a command for every file found`;
    }
    if (name === "fd" || name === "fdfind") {
      const action = args.find((arg) => /^--exec(-batch)?(=|$)/.test(arg) || /^-[A-Za-z]*[xX]/.test(arg));
      return action ? `fd ${action} runs a command for every file found` : undefined;
    }
    return undefined;
  },
  examples: {
    trigger: [
      "find . -exec sed -i s/a/b/ {} +",
      "find . -exec sh -c 'cat $1' _ {} \\;",
      "find . -execdir rm {} +",
      "find . -ok rm {} ;",
      "fd -e md -x sh -c 'id'",
      "fd . -X rm",
      "fd --exec-batch ls",
    ],
    pass: [
      "find . -name '*.ts'",
      "fd -e md",
      "find . -name exec",
      "fd -H x",
      'find . -name "*.json" -exec grep -l x {} \\;',
      "find src -type f -exec cat {} +",
      "find . -exec wc -l {} ';'",
    ],
  },
};
