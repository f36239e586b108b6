import { readFileSync } from "node:fs";
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mayChangeDirectory, type ShellProcess, startShellCommand } from "./exec.ts";

let dir: string;
const started: ShellProcess[] = [];

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "keel-exec-")));
});

afterEach(async () => {
  // Daemons a test left on purpose die here, with their whole group.
  for (const shell of started.splice(0)) {
    try {
      process.kill(-shell.pid, "SIGKILL");
    } catch {}
  }
  await rm(dir, { recursive: true, force: true });
});

async function run(
  command: string,
  options: { timeoutMs?: number; signal?: AbortSignal; cwd?: string; env?: Record<string, string> } = {},
) {
  const outputPath = join(dir, `out-${started.length}.log`);
  const shell = await startShellCommand({
    command,
    cwd: options.cwd ?? dir,
    outputPath,
    killGraceMs: 500,
    ...options,
  });
  started.push(shell);
  const exit = await shell.done;
  return { exit, output: await readFile(outputPath, "utf8"), shell };
}

/** Running, not a zombie waiting for its reaper (a killed process is dead even before it is reaped). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return process.platform !== "linux";
  }
}

async function waitUntilDead(pid: number): Promise<boolean> {
  for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  return !isAlive(pid);
}

describe("startShellCommand", () => {
  it("interleaves stdout and stderr in the order written and reports the exit code", async () => {
    const { exit, output } = await run("echo one; echo two >&2; echo three; exit 7");
    expect(output).toBe("one\ntwo\nthree\n");
    expect(exit.exitCode).toBe(7);
    expect(exit.interrupted).toBeUndefined();
  });

  it("closes stdin so a command waiting for input ends at once", async () => {
    const { exit, output } = await run('read -r line; echo "read=$? line=[$line]"; cat; echo cat=$?');
    expect(output).toBe("read=1 line=[]\ncat=0\n");
    expect(exit.exitCode).toBe(0);
  });

  it("reports the directory the shell ended in", async () => {
    const { exit } = await run("mkdir -p sub/deeper && cd sub/deeper");
    expect(exit.finalCwd).toBe(join(dir, "sub", "deeper"));
  });

  it("asks no report of a command that cannot change directory", async () => {
    const { exit, output } = await run("echo hi");
    expect(output).toBe("hi\n");
    expect(exit.finalCwd).toBeUndefined();
  });

  it("follows an exported function that changes directory", async () => {
    const { exit } = await run("mkdir -p sub; go", { env: { "BASH_FUNC_go%%": "() {  cd sub\n}" } });
    expect(exit.finalCwd).toBe(join(dir, "sub"));
  });

  it("gives each command a report of its own: a daemon an earlier one left cannot write into it", async () => {
    await run("cd . ; (sleep 0.3; cd /; pwd -P >&3) &");
    const { exit } = await run("mkdir -p sub; cd sub; sleep 0.6");
    expect(exit.finalCwd).toBe(join(dir, "sub"));
  });

  it("keeps the command's own line numbers and exit status despite the cwd report", async () => {
    const { exit, output } = await run("true\nfalse_command_xyz");
    expect(output).toContain("line 2: false_command_xyz: command not found");
    expect(exit.exitCode).toBe(127);
  });

  it("on timeout kills the whole process group, grandchildren included", async () => {
    const pidFile = join(dir, "grandchild.pid");
    const { exit } = await run(`(sleep 60 & echo $! > ${pidFile}; wait) & wait`, { timeoutMs: 300 });
    expect(exit.interrupted).toBe("timeout");
    const grandchild = Number((await readFile(pidFile, "utf8")).trim());
    expect(grandchild).toBeGreaterThan(0);
    expect(await waitUntilDead(grandchild)).toBe(true);
  });

  it("kills with SIGKILL after the grace period a group that ignores SIGTERM", async () => {
    const pidFile = join(dir, "stubborn.pid");
    const { exit } = await run(
      `bash -c 'trap "" TERM; echo $$ > ${pidFile}; while :; do sleep 0.05; done' & wait`,
      {
        timeoutMs: 300,
      },
    );
    expect(exit.interrupted).toBe("timeout");
    const stubborn = Number((await readFile(pidFile, "utf8")).trim());
    expect(await waitUntilDead(stubborn)).toBe(true);
  });

  it("on abort kills the group and says it was aborted", async () => {
    const controller = new AbortController();
    const pidFile = join(dir, "child.pid");
    setTimeout(() => controller.abort(), 300);
    const { exit } = await run(`sleep 60 & echo $! > ${pidFile}; wait`, { signal: controller.signal });
    expect(exit.interrupted).toBe("abort");
    const child = Number((await readFile(pidFile, "utf8")).trim());
    expect(await waitUntilDead(child)).toBe(true);
  });

  it("does not start at all when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const { exit, output } = await run("sleep 5; echo ran", { signal: controller.signal });
    expect(exit.interrupted).toBe("abort");
    expect(output).not.toContain("ran");
  });

  it.each([
    ["a subshell daemon", "(sleep 30 &) ; echo done"],
    ["a nohup daemon", "nohup sleep 30 >/dev/null 2>&1 & echo done"],
    ["a daemon that keeps the output open", "sleep 30 & echo done"],
  ])("returns when the command exits, despite %s", async (_name, command) => {
    const began = Date.now();
    const { exit, output } = await run(command, { timeoutMs: 20_000 });
    expect(exit.exitCode).toBe(0);
    expect(exit.interrupted).toBeUndefined();
    expect(output).toBe("done\n");
    // Not a timing assertion on speed: only that it did not wait for the 30 s daemon.
    expect(Date.now() - began).toBeLessThan(20_000);
  });
});

describe("mayChangeDirectory", () => {
  it.each([
    "cd sub",
    "pushd sub",
    "popd",
    "echo a && cd /tmp",
    "source env.sh",
    ". env.sh",
    "x; . ./env.sh",
    'eval "$NEXT"',
    "'c'd /tmp",
    '"c"d /tmp',
    "c\\d /tmp",
    "{cd,/tmp}",
    "$DIR_CHANGER /tmp",
    "`echo cd` /tmp",
    "c? /tmp",
    "mapfile -C go x < list",
    "enable -f ./lib.so cd2",
  ])("%s: may", (command) => {
    expect(mayChangeDirectory(command)).toBe(true);
  });

  it.each(["echo hi", "ls -la | grep x", "./run.sh", "git status", "npm test -- --run", "make -C build"])(
    "%s: cannot",
    (command) => {
      expect(mayChangeDirectory(command)).toBe(false);
    },
  );

  it("may when the environment brings code: an exported function or BASH_ENV", () => {
    expect(mayChangeDirectory("go", { "BASH_FUNC_go%%": "() { cd /; }" })).toBe(true);
    expect(mayChangeDirectory("true", { BASH_ENV: "/etc/x" })).toBe(true);
    expect(mayChangeDirectory("go", { OTHER: "1" })).toBe(false);
  });
});
