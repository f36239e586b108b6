import { describe, expect, it } from "vitest";
import { LruMap } from "./lruMap.ts";

describe("LruMap", () => {
  it("drops the least recently used entry past its limit, a read counting as a use", () => {
    const map = new LruMap<string, number>(3);
    map.set("a", 1).set("b", 2).set("c", 3);
    expect(map.get("a")).toBe(1);
    map.set("d", 4);
    expect([...map.keys()]).toEqual(["c", "a", "d"]);
    map.set("c", 30);
    map.set("e", 5);
    expect([...map.entries()]).toEqual([
      ["d", 4],
      ["c", 30],
      ["e", 5],
    ]);
    expect(map.get("a")).toBeUndefined();
    expect(map.has("a")).toBe(false);
  });

  it("keeps an undefined value, and has() does not count as a use", () => {
    const map = new LruMap<string, number | undefined>(2);
    map.set("x", undefined).set("y", 1);
    expect(map.has("x")).toBe(true);
    map.set("z", 2);
    expect([...map.keys()]).toEqual(["y", "z"]);
  });
});
