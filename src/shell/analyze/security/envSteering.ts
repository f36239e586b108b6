// Variables that steer programs (PAGER, GIT_*, LD_PRELOAD, PERL5OPT, NODE_OPTIONS, BASH_ENV...) turn
// a trusted command into a launcher for other code, whether set in front, exported or assigned.
import type { CommandView } from "../commandView.ts";
import { isSteeringVariable } from "../envVars.ts";
import { assignedVariables } from "../shellVariables.ts";
import type { CommandCheck } from "./types.ts";

/** Names a command sets: VAR= prefixes and env's, declarations, read/printf -v/mapfile/getopts targets. */
function assignedNames(view: CommandView): string[] {
  return [...view.assignments.map((assignment) => assignment.name), ...assignedVariables(view).names];
}

export const envSteering: CommandCheck = {
  id: "env-steering",
  stage: "command",
  description:
    "setting variables such as PAGER, GIT_*, LD_PRELOAD, PERL5OPT, PYTHON*, NODE_OPTIONS or BASH_ENV",
  run: (view) => {
    const steering = assignedNames(view).find((name) => isSteeringVariable(name));
    return steering
      ? `setting ${steering} can make programs run other code; run the command without it`
      : undefined;
  },
  examples: {
    trigger: [
      "export PAGER=\"sh -c 'id'\"; git branch",
      "GIT_EXTERNAL_DIFF=x git diff --ext-diff",
      "LD_PRELOAD=/tmp/x.so ls",
      'export PYTHONWARNINGS="all" BROWSER="perlthanks" PERL5OPT="-Mbase"',
      "env NODE_OPTIONS=--require=/tmp/x.js node a.js",
      "BASH_ENV=/tmp/x bash s.sh",
      "PATH=/tmp/evil:/usr/bin",
      "declare -x EDITOR=vim",
      "printf -v PAGER x",
      "read PATH",
    ],
    pass: [
      "LANG=C ls",
      "NODE_ENV=production npm test",
      "export FOO=1",
      "FORCE_COLOR=1 npm test",
      "echo PAGER=x",
      "CI=1 pytest",
    ],
  },
};
