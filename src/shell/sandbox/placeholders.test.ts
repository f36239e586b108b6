import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { holdStandIns, isLiveStandIn } from "./placeholders.ts";

let base: string;
beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "keel-standins-")));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("stand-ins for missing protected names", () => {
  it("makes an empty private folder, shares it between commands, and removes it after the last one", () => {
    const path = join(base, ".git");
    const first = holdStandIns([path]);
    expect(first.standing).toEqual([path]);
    expect(statSync(path).isDirectory()).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o700);
    const second = holdStandIns([path]);
    expect(second.standing).toEqual([path]);
    first.release();
    first.release();
    expect(existsSync(path)).toBe(true);
    expect(isLiveStandIn(path)).toBe(true);
    second.release();
    expect(existsSync(path)).toBe(false);
    expect(isLiveStandIn(path)).toBe(false);
  });

  it("leaves a stand-in someone put something into: it is theirs now", () => {
    const path = join(base, ".claude");
    const held = holdStandIns([path]);
    writeFileSync(join(path, "settings.json"), "{}\n");
    held.release();
    expect(existsSync(join(path, "settings.json"))).toBe(true);
  });

  it("reports a path that exists already as taken, and makes nothing where the parent is missing", () => {
    const taken = join(base, ".vscode");
    mkdirSync(taken);
    const deep = join(base, "missing", ".git");
    const held = holdStandIns([taken, deep]);
    expect(held.taken).toEqual([taken]);
    expect(held.standing).toEqual([]);
    held.release();
    expect(existsSync(taken)).toBe(true);
    expect(existsSync(join(base, "missing"))).toBe(false);
  });
});
