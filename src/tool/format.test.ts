import { describe, expect, it } from "vitest";
import { groupThousands } from "./format.ts";

describe("groupThousands", () => {
  it.each([
    [0, "0"],
    [999, "999"],
    [1000, "1,000"],
    [30000, "30,000"],
    [1234567, "1,234,567"],
    [-1234567, "-1,234,567"],
    [1234.5, "1,234.5"],
    [Number.NaN, "NaN"],
    [1e21, "1e+21"],
  ])("%d -> %s, as toLocaleString('en-US') groups it", (value, expected) => {
    expect(groupThousands(value)).toBe(expected);
    if (Number.isFinite(value) && Math.abs(value) < 1e21)
      expect(groupThousands(value)).toBe(value.toLocaleString("en-US", { maximumFractionDigits: 20 }));
  });
});
