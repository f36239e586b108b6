import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { parseContext } from "./parseContext.ts";

/** Parsers zod compiles while `run` runs: it builds them with the global Function constructor. */
function compiledDuring(run: () => void): number {
  const original = globalThis.Function;
  let compiled = 0;
  globalThis.Function = new Proxy(original, {
    construct(target, args) {
      compiled++;
      return Reflect.construct(target, args);
    },
  });
  try {
    run();
  } finally {
    globalThis.Function = original;
  }
  return compiled;
}

const shape = () => ({ name: z.string(), rules: z.object({ allow: z.array(z.string()).optional() }) });
const input = { name: "x", rules: { allow: ["Read"] } };

describe("parseContext", () => {
  afterEach(() => {
    z.config({ jitless: false });
  });

  it("keeps zod's default where nothing chose otherwise: the compiled parsers of a long-lived process", () => {
    z.config({ jitless: false });
    expect(parseContext()).toEqual({ jitless: false });
  });

  it("applies a one-shot process's choice to schemas built before it, nested objects included", () => {
    z.config({ jitless: false });
    // Built at "module load", before the process said it is a one-shot one.
    const early = z.object(shape());
    const control = z.object(shape());
    z.config({ jitless: true });
    expect(compiledDuring(() => expect(early.safeParse(input, parseContext()).success).toBe(true))).toBe(0);
    // Without the context, zod compiles a parser for such a schema on its first parse.
    expect(compiledDuring(() => expect(control.safeParse(input).success).toBe(true))).toBeGreaterThan(0);
  });

  it("gives each parse its own object (zod writes into the context it is given)", () => {
    expect(parseContext()).not.toBe(parseContext());
  });
});
