// Test helper, run as a process of its own: starts a lingering child in a process group of its own and
// one in this process's group, owns both (ownedProcesses.ts), prints their pids, then ends the way
// argv[2] says: `exit` (process.exit), `throw` (an uncaught error), `done` (nothing left to do, the
// children unreferenced), `released` (as done, after giving the children up).
import { spawn } from "node:child_process";
import { ownProcess, ownProcessGroup } from "../ownedProcesses.ts";

const how = process.argv[2];
const linger = ["-e", "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"];
const group = spawn(process.execPath, linger, { detached: true, stdio: "ignore" });
const single = spawn(process.execPath, linger, { stdio: "ignore" });
group.unref();
single.unref();
const releaseGroup = ownProcessGroup(group.pid as number);
const releaseSingle = ownProcess(single.pid as number);
process.stdout.write(`${JSON.stringify({ group: group.pid, single: single.pid })}\n`);
setTimeout(() => {
  if (how === "exit") process.exit(3);
  if (how === "throw") throw new Error("uncaught on purpose");
  if (how === "released") {
    releaseGroup();
    releaseSingle();
  }
}, 200);
