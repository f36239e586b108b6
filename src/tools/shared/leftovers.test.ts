// Leftovers of killed writers: which are removed (owner gone, still long enough) and which are not
// (owner alive, too fresh, not our name), then a real `keel` process killed with SIGKILL in the middle
// of a 150 MB edit, its leftovers hidden from LS, Glob and Grep, and removed by the next write there.
import { type ChildProcess, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type KeelWorld, keelWorld, runKeel, startJsonlSession } from "../../cli/testing/keelProcess.ts";
import { processStartMs } from "../../tool/processAlive.ts";
import { isAtomicTempName, isLockName } from "./keelNames.ts";
import { sweepLeftovers } from "./leftovers.ts";

/** Beyond any pid_max (2^22 at most): no process can have it. */
const DEAD_PID = 4_194_304 + 17;
const MINUTE = 60_000;

const dir = mkdtempSync(join(tmpdir(), "keel-leftovers-"));
let sleeper: ChildProcess;
afterAll(() => {
  sleeper?.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});
beforeAll(() => {
  sleeper = spawn("sleep", ["600"], { stdio: "ignore" });
});

interface Row {
  what: string;
  name: () => string;
  /** Last modified, ms before now; undefined: now. */
  agoMs?: number;
  folder?: boolean;
  graceMs?: number;
  removed: boolean;
}

const ROWS: Row[] = [
  {
    what: "dead owner, still for longer than the grace",
    name: () => `.a.txt.${DEAD_PID}.0a1b2c3d.keel-tmp`,
    agoMs: 2 * MINUTE,
    removed: true,
  },
  {
    what: "dead owner, written just now (another host or pid namespace may be writing)",
    name: () => `.b.txt.${DEAD_PID}.0a1b2c3d.keel-tmp`,
    removed: false,
  },
  {
    what: "live owner, written after it started",
    name: () => `.c.txt.${sleeper.pid}.0a1b2c3d.keel-tmp`,
    graceMs: 0,
    removed: false,
  },
  {
    what: "live pid that started after the file was written (reused pid)",
    name: () => `.d.txt.${sleeper.pid}.0a1b2c3d.keel-tmp`,
    agoMs: 60 * MINUTE,
    removed: true,
  },
  {
    what: "this very process, written now (a write in progress)",
    name: () => `.e.txt.${process.pid}.0a1b2c3d.keel-tmp`,
    graceMs: 0,
    removed: false,
  },
  { what: "not our pattern: no pid", name: () => ".f.txt.keel-tmp", agoMs: 2 * MINUTE, removed: false },
  {
    what: "not our pattern: not hidden",
    name: () => `g.txt.${DEAD_PID}.0a1b2c3d.keel-tmp`,
    agoMs: 2 * MINUTE,
    removed: false,
  },
  {
    what: "not our pattern: another suffix",
    name: () => `.h.txt.${DEAD_PID}.0a1b2c3d.keel-tmp.bak`,
    agoMs: 2 * MINUTE,
    removed: false,
  },
  {
    what: "a lock nobody refreshed for minutes",
    name: () => ".i.txt.keel-lock",
    folder: true,
    agoMs: 2 * MINUTE,
    removed: true,
  },
  { what: "a lock refreshed just now", name: () => ".j.txt.keel-lock", folder: true, removed: false },
];

describe("sweepLeftovers", () => {
  it.each(ROWS)("$what: removed $removed", async (row) => {
    const folder = mkdtempSync(join(dir, "case-"));
    const path = join(folder, row.name());
    if (row.folder) mkdirSync(path);
    else writeFileSync(path, "partial");
    if (row.agoMs !== undefined) {
      const then = new Date(Date.now() - row.agoMs);
      utimesSync(path, then, then);
    }
    const result = await sweepLeftovers(folder, {
      force: true,
      ...(row.graceMs === undefined ? {} : { graceMs: row.graceMs }),
    });
    expect(existsSync(path)).toBe(!row.removed);
    expect(result.removed).toEqual(row.removed ? [path] : []);
  });

  it("a lock folder with something in it is not a lock: left alone", async () => {
    const folder = mkdtempSync(join(dir, "case-"));
    const path = join(folder, ".k.txt.keel-lock");
    mkdirSync(path);
    writeFileSync(join(path, "user-data"), "mine");
    const then = new Date(Date.now() - 2 * MINUTE);
    utimesSync(path, then, then);
    await sweepLeftovers(folder, { force: true });
    expect(readFileSync(join(path, "user-data"), "utf8")).toBe("mine");
  });
});

/** Sends the edit and kills the process as soon as its temporary file appears; false if the edit finished first. */
async function killMidWrite(world: KeelWorld, big: string): Promise<boolean> {
  const session = startJsonlSession(world, ["--mode", "acceptEdits"]);
  const read = await session.call("Read", { file_path: big, limit: 1 });
  expect(read.is_error).toBe(false);
  let finished = false;
  const edit = session
    .call("Edit", { file_path: big, old_string: "MARKER_OLD", new_string: "MARKER_NEW" })
    .then(
      () => {
        finished = true;
      },
      () => undefined,
    );
  while (!finished && !readdirSync(world.project).some(isAtomicTempName))
    await new Promise((r) => setImmediate(r));
  if (!finished) process.kill(session.pid, "SIGKILL");
  await edit;
  await session.close();
  return !finished || !readFileSync(big, "latin1").includes("MARKER_NEW");
}

describe("a keel process killed with SIGKILL in the middle of a large edit", () => {
  it("leaves the file as it was; its leftovers are not listed, and the next write in the folder removes them", async () => {
    const world = keelWorld();
    const { project } = world;
    const big = join(project, "big.txt");
    const original = `MARKER_OLD\n${"x".repeat(150 << 20)}\n`;
    writeFileSync(big, original);
    let caught = false;
    for (let trial = 0; trial < 5 && !caught; trial++) caught = await killMidWrite(world, big);
    expect(caught).toBe(true);
    expect(readFileSync(big, "latin1") === original).toBe(true);
    const leftovers = readdirSync(project).filter((name) => isAtomicTempName(name) || isLockName(name));
    expect(leftovers.some(isAtomicTempName)).toBe(true);

    // Hidden from every listing while they are there.
    const ls = await runKeel(["tool", "LS", JSON.stringify({ path: project })], world);
    expect(ls.stdout).toContain("big.txt");
    expect(ls.stdout).not.toMatch(/keel-tmp|keel-lock/);
    const glob = await runKeel(["tool", "Glob", JSON.stringify({ pattern: "**/*", path: project })], world);
    expect(glob.stdout).toContain("big.txt");
    expect(glob.stdout).not.toMatch(/keel-tmp|keel-lock/);
    const grep = await runKeel(
      ["tool", "Grep", JSON.stringify({ pattern: "MARKER_NEW", path: project })],
      world,
    );
    expect(grep.stdout).toContain("No files found");

    // A leftover of a process that is certainly gone, beside the real one.
    const ghost = join(project, `.ghost.txt.${DEAD_PID}.0a1b2c3d.keel-tmp`);
    writeFileSync(ghost, "partial");
    // The grace a dead writer's file gets (LEFTOVER_GRACE_MS), passed by moving the files' times back.
    const then = new Date(Date.now() - 2 * MINUTE);
    for (const path of [...leftovers.map((name) => join(project, name)), ghost]) utimesSync(path, then, then);
    // And one of a process that is alive and older than the file (pid 1): kept.
    const pidOneStarted = processStartMs(1);
    const livingName = ".living.txt.1.0a1b2c3d.keel-tmp";
    const living = join(project, livingName);
    const keepsLiving = pidOneStarted !== undefined && pidOneStarted < then.getTime() - MINUTE;
    if (keepsLiving) {
      writeFileSync(living, "partial");
      utimesSync(living, then, then);
    }

    const write = await runKeel(
      [
        "tool",
        "Write",
        JSON.stringify({ file_path: join(project, "other.txt"), content: "hello\n" }),
        "--mode",
        "acceptEdits",
      ],
      world,
    );
    expect(write.code).toBe(0);
    const after = readdirSync(project);
    const remaining = after.filter((name) => isAtomicTempName(name) || isLockName(name));
    expect(remaining).toEqual(keepsLiving ? [livingName] : []);
    expect(readFileSync(big, "latin1") === original).toBe(true);
  }, 120_000);
});
