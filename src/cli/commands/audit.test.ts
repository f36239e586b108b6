// `keel audit` over real log folders, as a real process: records of the wrong shape are skipped and
// counted (never a crash), --limit reads from the end, and a call's writer keeps the log within the
// size and age the user's settings give it.
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { segmentName } from "../../audit/segments.ts";
import { type KeelWorld, keelWorld, runKeel } from "../testing/keelProcess.ts";

let world: KeelWorld;
let auditDir: string;
beforeEach(() => {
  world = keelWorld();
  auditDir = join(world.home, ".keel", "audit");
  mkdirSync(auditDir, { recursive: true });
});

function record(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    time: "2026-11-02T10:00:00.000Z",
    sessionId: "aaaa1111",
    toolUseId: "t",
    tool: "Bash",
    inputSummary: '{"command":"ls"}',
    behavior: "allow",
    decidedBy: "allow rule Bash(ls) from project settings",
    hooks: [],
    durationMs: { total: 12, permission: 1, call: 10 },
    resultChars: 42,
    isError: false,
    ...fields,
  };
}

const lines = (...records: Array<Record<string, unknown> | string>) =>
  records.map((entry) => (typeof entry === "string" ? entry : JSON.stringify(entry))).join("\n") + "\n";

describe("keel audit with records it cannot show", () => {
  beforeEach(() => {
    writeFileSync(
      join(auditDir, "2026-11-02T09-00-00.000Z.jsonl"),
      lines(
        record({ toolUseId: "first" }),
        record({ toolUseId: "bad-tool", tool: 12 }),
        '{"torn": ',
        record({ toolUseId: "bad-hooks", hooks: "none" }),
        record({ toolUseId: "last", tool: "Read", behavior: "deny" }),
      ),
    );
  });

  it.each([
    [["audit"]],
    [["audit", "--json"]],
    [["audit", "--summary"]],
    [["audit", "--summary", "--json"]],
    [["audit", "--limit", "5"]],
  ])("keel %j skips them, counts them on stderr and exits 0", async (args) => {
    const result = await runKeel(args, world);
    // --limit reads from the end, so the first mismatch it meets is the last one in the file.
    const first = args.includes("--limit")
      ? "hooks: Invalid input: expected array, received string"
      : "tool: Invalid input: expected string, received number";
    expect(result.stderr).toBe(
      `keel: 1 unreadable line(s) and 2 record(s) that do not match the audit record format (first: ${join(auditDir, "2026-11-02T09-00-00.000Z.jsonl")}: ${first}) in the audit log were skipped\n`,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain("bad-");
  });

  it("shows the good ones around them", async () => {
    const json = await runKeel(["audit", "--json"], world);
    expect(
      json.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).toolUseId),
    ).toEqual(["first", "last"]);
    const summary = await runKeel(["audit", "--summary"], world);
    expect(summary.stdout).toMatch(/Bash\s+1\s+1\s+0\s+0\s+0/);
    expect(summary.stdout).toMatch(/Read\s+1\s+0\s+1\s+0\s+0/);
  });
});

describe("keel audit --limit", () => {
  it("takes the last records from the newest segments, in order", async () => {
    writeFileSync(
      join(auditDir, "2026-11-01.jsonl"),
      lines(record({ toolUseId: "a" }), record({ toolUseId: "b", sessionId: "other" })),
    );
    writeFileSync(
      join(auditDir, "2026-11-02T00-00-00.000Z.jsonl"),
      lines(record({ toolUseId: "c" }), record({ toolUseId: "d", sessionId: "other" })),
    );
    writeFileSync(join(auditDir, "2026-11-02T08-00-00.000Z.jsonl"), lines(record({ toolUseId: "e" })));
    const ids = async (...args: string[]) =>
      (await runKeel(["audit", "--json", ...args], world)).stdout
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line).toolUseId);
    expect(await ids("--limit", "2")).toEqual(["d", "e"]);
    expect(await ids("--limit", "3", "--session", "aaaa1111")).toEqual(["a", "c", "e"]);
    expect(await ids("--limit", "0")).toEqual([]);
    expect(await ids("--limit", "10", "--session", "other")).toEqual(["b", "d"]);
  });
});

describe("the log's bounds from the user's settings", () => {
  const DAY = 86_400_000;
  const MB = 1024 * 1024;
  const readRecord = () => runKeel(["tool", "LS", JSON.stringify({ path: world.project })], world);

  function oldSegments(count: number, bytes: number, firstDaysAgo: number): string[] {
    return Array.from({ length: count }, (_, i) => {
      const name = segmentName(Date.now() - (firstDaysAgo - i) * DAY);
      writeFileSync(join(auditDir, name), `${JSON.stringify(record())}\n`.padEnd(bytes, " "));
      return name;
    });
  }

  it("audit.maxAgeDays: a call's record removes segments older than that", async () => {
    const old = oldSegments(5, 1_000, 10);
    writeFileSync(join(world.home, ".keel", "settings.json"), JSON.stringify({ audit: { maxAgeDays: 7 } }));
    expect((await readRecord()).code).toBe(0);
    const left = readdirSync(auditDir).sort();
    // Segments started 10, 9, 8 and 7 days ago; the last holds records up to 6 days old and stays.
    expect(left.slice(0, -1)).toEqual(old.slice(3));
    expect(left).toHaveLength(3);
  });

  it("audit.maxSizeMB: a call's record removes the oldest segments until the log fits", async () => {
    const old = oldSegments(6, MB / 2, 6);
    writeFileSync(join(world.home, ".keel", "settings.json"), JSON.stringify({ audit: { maxSizeMB: 1 } }));
    expect((await readRecord()).code).toBe(0);
    const left = readdirSync(auditDir).sort();
    expect(left.slice(0, -1)).toEqual(old.slice(4));
  });

  it("a project's own settings cannot bound the user's log", async () => {
    const old = oldSegments(3, 1_000, 20);
    mkdirSync(join(world.project, ".keel"));
    writeFileSync(
      join(world.project, ".keel", "settings.json"),
      JSON.stringify({ audit: { maxAgeDays: 1 } }),
    );
    const result = await runKeel(["tool", "--trust", "LS", JSON.stringify({ path: world.project })], world);
    expect(result.stderr).toContain("audit.maxAgeDays ignored: the audit log is yours");
    expect(readdirSync(auditDir).sort().slice(0, 3)).toEqual(old);
  });

  it("refuses a bound that is not a number of at least 1", async () => {
    writeFileSync(join(world.home, ".keel", "settings.json"), JSON.stringify({ audit: { maxSizeMB: 0 } }));
    const result = await readRecord();
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/audit\.maxSizeMB: Too small/);
  });
});

describe("the full collection a long read of the log makes now and then", () => {
  it("is had in this process, and frees what nothing holds", async () => {
    const { fullCollection } = await import("./audit.ts");
    const collect = fullCollection();
    expect(collect).toBeTypeOf("function");
    let target: object | undefined = { payload: "x".repeat(1_000) };
    const ref = new WeakRef(target);
    target = undefined;
    // A WeakRef's target is kept until the current job ends: collect in a later one.
    await new Promise((resolve) => setImmediate(resolve));
    collect!();
    expect(ref.deref()).toBeUndefined();
  });
});
