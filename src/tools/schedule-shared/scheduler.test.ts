// The scheduler on a clock the test moves: cron jobs fire at their times (5 fields, local time),
// one-shots once, recurring ones until they expire after 30 days; durable jobs are kept in the project,
// survive a restart, fire once for a run missed while no session was open, and fire in one session only.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { until } from "../../pipeline/testing/tools.ts";
import { ManualClock } from "./clock.ts";
import { checkCron } from "./cron.ts";
import { durableStore } from "./durableJobs.ts";
import { type FiredPrompt, RECURRING_EXPIRY_MS, Scheduler } from "./scheduler.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
// 2026-03-02 10:00:30 local time: a Monday, half a minute past the hour.
const START = new Date(2026, 2, 2, 10, 0, 30).getTime();

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), "keel-schedule-"));
  folders.push(dir);
  return dir;
}

function scheduler(options: { clock?: ManualClock; projectRoot?: string } = {}) {
  const clock = options.clock ?? new ManualClock(START);
  const fired: FiredPrompt[] = [];
  const instance = new Scheduler({
    clock,
    ...(options.projectRoot ? { store: durableStore(options.projectRoot) } : {}),
    fire: (prompt) => fired.push(prompt),
  });
  return { clock, fired, scheduler: instance };
}

describe("checkCron", () => {
  it.each(["*/5 * * * *", "30 14 28 2 *", "0 9 * * 1-5", "7 * * * *", "0 0 1 1 *"])("takes %s", (cron) => {
    expect(checkCron(cron)).toEqual({ ok: true });
  });
  it.each([
    ["* * * *", /has 4 fields/],
    ["* * * * * *", /has 6 fields/],
    ["", /has 0 fields/],
    ["@hourly", /has 1 fields/],
    ["61 * * * *", /not a valid cron expression/],
    ["* * 32 * *", /not a valid cron expression/],
  ])("refuses %j", (cron, message) => {
    const checked = checkCron(cron);
    expect(checked.ok).toBe(false);
    expect(checked.ok ? "" : checked.message).toMatch(message);
  });
});

describe("session jobs", () => {
  it("a recurring job fires at each match, in local time, and waits for nothing real", async () => {
    const { clock, fired, scheduler: s } = scheduler();
    const job = await s.create({
      cron: "*/10 * * * *",
      prompt: "check the build",
      recurring: true,
      durable: false,
    });
    expect(job.nextFireAt).toBe(new Date(2026, 2, 2, 10, 10, 0).getTime());
    clock.advance(9 * MINUTE);
    expect(fired).toEqual([]);
    clock.advance(MINUTE);
    expect(fired).toHaveLength(1);
    expect(fired[0]?.prompt).toMatch(
      /^check the build\n\n\(Scheduled prompt: cron "\*\/10 \* \* \* \*", job cron_\w+ of this session\.\)$/,
    );
    clock.advance(20 * MINUTE);
    expect(fired).toHaveLength(3);
    expect(s.list()[0]?.nextFireAt).toBe(new Date(2026, 2, 2, 10, 40, 0).getTime());
  });

  it("a one-shot job fires once and is deleted", async () => {
    const { clock, fired, scheduler: s } = scheduler();
    await s.create({ cron: "15 10 2 3 *", prompt: "remind me", recurring: false, durable: false });
    clock.advance(DAY);
    expect(fired).toHaveLength(1);
    expect(fired[0]?.prompt).toContain("It was a one-shot job and is now deleted.");
    expect(s.list()).toEqual([]);
  });

  it("a recurring job runs a last time once 30 days have passed, then is deleted", async () => {
    const { clock, fired, scheduler: s } = scheduler();
    const job = await s.create({ cron: "7 9 * * *", prompt: "daily", recurring: true, durable: false });
    expect(job.expiresAt).toBe(START + RECURRING_EXPIRY_MS);
    clock.advance(29 * DAY);
    expect(fired).toHaveLength(29);
    expect(s.list()).toHaveLength(1);
    // April 1st 9:07 is before the 30 days are up; April 2nd's run is the first after: the last one.
    clock.advance(2 * DAY);
    expect(fired).toHaveLength(31);
    expect(fired.at(-2)?.prompt).not.toContain("last run");
    expect(fired.at(-1)?.prompt).toContain("this was its last run");
    expect(s.list()).toEqual([]);
  });

  it("CronDelete's path: a deleted job never fires", async () => {
    const { clock, fired, scheduler: s } = scheduler();
    const job = await s.create({ cron: "* * * * *", prompt: "x", recurring: true, durable: false });
    expect((await s.delete(job.id))?.id).toBe(job.id);
    expect(await s.delete(job.id)).toBeUndefined();
    clock.advance(10 * MINUTE);
    expect(fired).toEqual([]);
  });
});

describe("ScheduleWakeup", () => {
  it.each([
    [5, 60],
    [60, 60],
    [270, 270],
    [3600, 3600],
    [99_999, 3600],
  ])("a delay of %i s is %i s", (asked, given) => {
    const { scheduler: s } = scheduler();
    expect(s.scheduleWakeup({ delaySeconds: asked, reason: "r", prompt: "p" }).delaySeconds).toBe(given);
  });

  it("fires once with its prompt; a new one replaces it; stop cancels it", () => {
    const { clock, fired, scheduler: s } = scheduler();
    s.scheduleWakeup({ delaySeconds: 600, reason: "first", prompt: "one" });
    s.scheduleWakeup({ delaySeconds: 120, reason: "CI takes 2 minutes", prompt: "check CI" });
    clock.advance(119_000);
    expect(fired).toEqual([]);
    clock.advance(1000);
    expect(fired).toEqual([{ prompt: "check CI", label: "Wakeup (ScheduleWakeup): CI takes 2 minutes" }]);
    clock.advance(3600_000);
    expect(fired).toHaveLength(1);
    s.scheduleWakeup({ delaySeconds: 60, reason: "again", prompt: "p" });
    expect(s.cancelWakeup()?.reason).toBe("again");
    clock.advance(3600_000);
    expect(fired).toHaveLength(1);
  });
});

describe("durable jobs", () => {
  it("are kept in .keel/scheduled_tasks.json and fire after a restart", async () => {
    const root = project();
    const first = scheduler({ projectRoot: root });
    const job = await first.scheduler.create({
      cron: "30 10 * * *",
      prompt: "standup notes",
      recurring: true,
      durable: true,
    });
    first.scheduler.close();
    const saved = JSON.parse(readFileSync(join(root, ".keel", "scheduled_tasks.json"), "utf8"));
    expect(saved.tasks).toEqual([
      { id: job.id, cron: "30 10 * * *", prompt: "standup notes", recurring: true, createdAt: START },
    ]);
    // The next session, same day, before the time.
    const second = scheduler({ projectRoot: root, clock: new ManualClock(START + 5 * MINUTE) });
    await second.scheduler.start();
    expect(second.fired).toEqual([]);
    expect(second.scheduler.list().map((entry) => entry.id)).toEqual([job.id]);
    second.clock.advance(25 * MINUTE);
    await until(() => second.fired.length === 1, "the durable job to fire");
    expect(second.fired[0]?.prompt).toContain(
      `durable job ${job.id}, kept in .keel/scheduled_tasks.json; it fires while a Keel session is open in this project`,
    );
    await until(
      () =>
        JSON.parse(readFileSync(join(root, ".keel", "scheduled_tasks.json"), "utf8")).tasks[0].lastFiredAt !==
        undefined,
      "the fire to be noted",
    );
    second.scheduler.close();
  });

  it("a run missed while no session was open fires once when one opens, and says so", async () => {
    const root = project();
    mkdirSync(join(root, ".keel"));
    const twoHoursAgo = START - 2 * 60 * MINUTE;
    writeFileSync(
      join(root, ".keel", "scheduled_tasks.json"),
      JSON.stringify({
        tasks: [
          {
            id: "cron_0000aaaa",
            cron: "*/15 * * * *",
            prompt: "poll",
            recurring: true,
            createdAt: twoHoursAgo,
          },
        ],
      }),
    );
    const { fired, scheduler: s } = scheduler({ projectRoot: root });
    await s.start();
    expect(fired).toHaveLength(1);
    expect(fired[0]?.label).toMatch(/late: missed at .*, when no Keel session was open in this project/);
    s.close();
  });

  it("two sessions open in one project: each run fires in one of them", async () => {
    const root = project();
    const clock = new ManualClock(START);
    const a = scheduler({ projectRoot: root, clock });
    await a.scheduler.create({ cron: "45 10 * * *", prompt: "once a day", recurring: true, durable: true });
    const b = scheduler({ projectRoot: root, clock });
    await b.scheduler.start();
    clock.advance(45 * MINUTE);
    await until(() => a.fired.length + b.fired.length >= 1, "a fire");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(a.fired.length + b.fired.length).toBe(1);
    a.scheduler.close();
    b.scheduler.close();
  });

  it("reads Claude Code's .claude/scheduled_tasks.json and never writes it", async () => {
    const root = project();
    mkdirSync(join(root, ".claude"));
    const claudeFile = join(root, ".claude", "scheduled_tasks.json");
    const text = JSON.stringify([
      { id: "cc1", cron: "50 10 * * *", prompt: "from claude", recurring: false, createdAt: START },
    ]);
    writeFileSync(claudeFile, text);
    const { clock, fired, scheduler: s } = scheduler({ projectRoot: root });
    await s.start();
    expect(s.list().map((job) => [job.id, job.source])).toEqual([["cc1", "claude"]]);
    clock.advance(50 * MINUTE);
    await until(() => fired.length === 1, "the job from .claude to fire");
    expect(fired[0]?.prompt).toContain("kept in .claude/scheduled_tasks.json");
    await until(() => s.list().length === 0, "the one-shot to end");
    await until(
      () =>
        JSON.parse(readFileSync(join(root, ".keel", "scheduled_tasks.json"), "utf8")).claude?.cc1?.done ===
        true,
      "Keel's file to note it done",
    );
    expect(readFileSync(claudeFile, "utf8")).toBe(text);
    s.close();
    const again = scheduler({ projectRoot: root, clock: new ManualClock(START + DAY) });
    await again.scheduler.start();
    expect(again.scheduler.list()).toEqual([]);
    expect(again.fired).toEqual([]);
  });
});
