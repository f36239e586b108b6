import { describe, expect, it } from "vitest";
import { inOrder } from "./inOrder.ts";

describe("inOrder", () => {
  it("yields every item in order, and stopping early is fine", () => {
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647);
    for (const size of [0, 1, 2, 3, 10, 257]) {
      const items = Array.from({ length: size }, () => random() % 50);
      expect([...inOrder(items, (a, b) => a - b)]).toEqual([...items].sort((a, b) => a - b));
    }
    const firstThree: string[] = [];
    for (const word of inOrder(["d", "a", "c", "b", "e"], (a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (firstThree.length === 3) break;
      firstThree.push(word);
    }
    expect(firstThree).toEqual(["a", "b", "c"]);
  });
});
