import { AjvJsonSchemaValidator as SdkValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { describe, expect, it } from "vitest";
import { AjvJsonSchemaValidator } from "./ajvOnDemand.ts";

const schema = {
  type: "object",
  properties: { email: { type: "string", format: "email" }, count: { type: "integer", minimum: 1 } },
  required: ["email"],
  additionalProperties: false,
} as const;

describe("AjvJsonSchemaValidator on demand", () => {
  it("loads ajv only when a schema is first checked", () => {
    const validator = new AjvJsonSchemaValidator();
    expect(validator.loaded).toBe(false);
    validator.getValidator(schema);
    expect(validator.loaded).toBe(true);
  });

  it.each([
    [{ email: "a@example.com", count: 2 }],
    [{ email: "not an email" }],
    [{ email: "a@example.com", count: 0 }],
    [{ count: 3 }],
    [{ email: "a@example.com", extra: true }],
    ["a string"],
  ])("gives the SDK's own verdict and message for %j", (input) => {
    const ours = new AjvJsonSchemaValidator().getValidator(schema)(input);
    const sdk = new SdkValidator().getValidator(schema)(input);
    expect(ours).toEqual(sdk);
  });

  it("rejects a schema ajv cannot compile, as the SDK does", () => {
    const broken = { type: "object", properties: { a: { $ref: "#/nowhere" } } };
    expect(() => new AjvJsonSchemaValidator().getValidator(broken)).toThrow();
    expect(() => new SdkValidator().getValidator(broken)).toThrow();
  });
});
