// Wrappers (timeout, nice, env, stdbuf...) with options the analyzer does not know could change what runs.
import type { CommandCheck } from "./types.ts";

export const wrapperOptions: CommandCheck = {
  id: "wrapper-options",
  stage: "command",
  description:
    "options of timeout, time, nice, stdbuf, ionice, setsid, env, command and exec that are not understood",
  run: (view) => (view.unwrapProblem?.check === "wrapper-options" ? view.unwrapProblem.reason : undefined),
  examples: {
    trigger: ["env -C /tmp ls", "time -o /tmp/out ls", "timeout --weird 5 ls", "nice --foo ls"],
    pass: ["timeout 10 ls", "nice -n 5 ls", "env -i ls", "time -p ls", "stdbuf -oL ls"],
  },
};
