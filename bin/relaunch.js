// Started by a Node older than 22: run Keel with the project's pinned Node (the `node` npm package a
// clone's `npm install` brings) as a child, pass signals on, and end as the child ended. Loaded only
// on an old Node, so a start on Node >= 22 never reads this file.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { constants } from "node:os";
import { fileURLToPath } from "node:url";

const FORWARDED = ["SIGINT", "SIGTERM", "SIGHUP"];

/**
 * Whether this process is in the terminal's foreground process group. Then Ctrl-C (SIGINT) already
 * reaches the child, which shares our group: passing it on too would make one Ctrl-C count twice.
 */
function inTerminalForeground() {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    // Fields after the command name (in parentheses, may hold anything): state ppid pgrp session tty tpgid
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const pgrp = Number(fields[2]);
    const tpgid = Number(fields[5]);
    return tpgid > 0 && tpgid === pgrp;
  } catch {
    return Boolean(process.stdin.isTTY);
  }
}

/** Ends this process the way the child ended: the same signal, else its exit code. */
function exitLike(code, signal) {
  if (signal) {
    for (const name of FORWARDED) process.removeAllListeners(name);
    try {
      process.kill(process.pid, signal);
    } catch {}
    // Still here (a signal Node does not let us die of): the shell's convention.
    process.exit(128 + (constants.signals[signal] ?? 0));
  }
  process.exit(code ?? 1);
}

/** Re-runs `script` on the pinned Node when there is one; returns false when there is none. */
export function relaunchOnPinnedNode(script, args) {
  const pinned = fileURLToPath(new URL("../node_modules/node/bin/node", import.meta.url));
  if (!existsSync(pinned) || process.execPath === pinned) return false;
  // KEEL_RELAUNCHED_FROM lets `keel doctor` say the start could be saved.
  const child = spawn(pinned, [script, ...args], {
    stdio: "inherit",
    env: { ...process.env, KEEL_RELAUNCHED_FROM: process.version },
  });
  for (const name of FORWARDED) {
    process.on(name, () => {
      if (name === "SIGINT" && inTerminalForeground()) return;
      try {
        child.kill(name);
      } catch {}
    });
  }
  child.on("error", (error) => {
    process.stderr.write(`keel: could not start the pinned Node (${pinned}): ${error.message}\n`);
    process.exit(2);
  });
  child.on("exit", exitLike);
  return true;
}

/** What helps on an old Node: a newer one, or (in a clone of Keel) `npm install` for the pinned one. */
export function oldNodeMessage() {
  const clone = existsSync(fileURLToPath(new URL("../src/", import.meta.url)));
  return (
    `keel needs Node.js 22 or newer; this is ${process.version}. ` +
    "Install Node 22 or newer (https://nodejs.org, or a version manager such as `nvm install 22`) and put it first on PATH" +
    (clone ? ", or run `npm install` in the keel folder to get the Node 24 it pins.\n" : ".\n")
  );
}
