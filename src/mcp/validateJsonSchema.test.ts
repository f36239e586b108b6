// Input checks against an MCP server's raw JSON Schema: what the model is told stays short.
import { describe, expect, it } from "vitest";
import { compileJsonSchema } from "./validateJsonSchema.ts";

describe("compileJsonSchema", () => {
  it("clips ajv's report of thousands of errors to about 1 KB", async () => {
    const compiled = await compileJsonSchema({
      type: "object",
      properties: { name: { type: "string" } },
      additionalProperties: false,
    });
    if (compiled.kind !== "ready") throw new Error(compiled.reason);
    const input = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`key_${i}`, i]));
    const problems = compiled.validate(input)!;
    expect(problems).toMatch(/must NOT have additional properties/);
    expect(problems).toMatch(/more characters not shown/);
    expect(problems.length).toBeLessThan(1_200);
    expect(compiled.validate({ name: "ok" })).toBeUndefined();
  });
});
