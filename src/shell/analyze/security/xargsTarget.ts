// xargs runs its target with words read from stdin: only known targets with strict options pass.
import { isInterpreter } from "../programs.ts";
import { classifyCommand } from "../readOnly.ts";
import type { CommandCheck } from "./types.ts";

const RUNS_OTHERS = new Set([
  "xargs",
  "find",
  "fd",
  "env",
  "timeout",
  "nice",
  "nohup",
  "exec",
  "eval",
  "sudo",
  "watch",
  "parallel",
  "git",
]);

export const xargsTarget: CommandCheck = {
  id: "xargs-target",
  stage: "command",
  description: "xargs with options it does not know, no target, or a target that runs code",
  run: (view) => {
    if (!view.wrappers.includes("xargs") && view.unwrapProblem?.check !== "xargs-target") return undefined;
    if (view.unwrapProblem?.check === "xargs-target") return view.unwrapProblem.reason;
    const name = view.argv[0] ?? "";
    if (isInterpreter(name) || RUNS_OTHERS.has(name)) return `xargs ${name} runs code built from its input`;
    const kind = classifyCommand(view.argv).kind;
    if (kind === "other" && !["rm", "mv", "cp", "mkdir", "touch", "chmod"].includes(name))
      return `xargs runs ${name}, which is not known to be safe, with words from its input`;
    return undefined;
  },
  examples: {
    trigger: [
      "find . | xargs sh -c 'id'",
      "ls | xargs -I{} sh -c '{}'",
      "ls | xargs python3",
      "ls | xargs",
      "ls | xargs curl",
      "ls | xargs -Q echo",
    ],
    pass: [
      "find . -name '*.o' | xargs rm",
      "git ls-files | xargs -0 wc -l",
      "ls | xargs -n 1 echo",
      "xargs -t touch echo",
      "ls | xargs -i echo {}",
      "xargs -a list.txt rm",
      "ls | xargs -e echo",
    ],
  },
};
