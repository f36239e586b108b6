import { describe, expect, it } from "vitest";
import { randomBytes, randomUUID } from "./lazyCrypto.ts";

describe("lazyCrypto", () => {
  it("gives version 4 UUIDs, all different", () => {
    const ids = Array.from({ length: 200 }, () => randomUUID());
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("gives random bytes of the size asked", () => {
    const a = randomBytes(64);
    const b = randomBytes(64);
    expect(a).toHaveLength(64);
    expect(a.equals(b)).toBe(false);
    expect(randomBytes(0)).toHaveLength(0);
  });
});
