// /proc/<pid>/environ (and mem) expose the environment and memory of processes: API keys and tokens.
import type { CommandCheck } from "./types.ts";

const PROC_SECRET = /\/proc\/[^/\s]+\/(environ|mem)\b|\/proc\/[^/\s]+\/task\/[^/\s]+\/environ/;

export const procEnviron: CommandCheck = {
  id: "proc-environ",
  stage: "command",
  description: "reading /proc/*/environ or /proc/*/mem exposes secrets of running processes",
  run: (view) => {
    const words = [
      ...view.written.simple.argv,
      ...view.redirects.map((redirect) => redirect.target?.value ?? ""),
    ];
    const hit = words.find((word) => PROC_SECRET.test(word));
    return hit ? `${hit.slice(0, 60)} exposes the environment or memory of a process` : undefined;
  },
  examples: {
    trigger: [
      "cat /proc/self/environ",
      "strings /proc/1/environ",
      "tr '\\0' '\\n' < /proc/self/environ",
      "cat /proc/self/task/1/environ",
    ],
    pass: ["cat /proc/cpuinfo", "ls /proc", "cat environ.txt"],
  },
};
