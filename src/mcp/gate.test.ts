// The MCP server's gate for calls a client sends at once: safe calls together, any other call alone.

import { describe, expect, it } from "vitest";
import * as z from "zod";
import { buildTool, type Tool } from "../tool/Tool.ts";
import { createReadWriteGate } from "./gate.ts";

const tool = (safe: boolean) =>
  buildTool({
    name: safe ? "Safe" : "Unsafe",
    inputSchema: z.object({}),
    maxResultSizeChars: 100,
    description: () => "",
    prompt: () => "",
    isConcurrencySafe: safe,
    call: async () => ({ data: "" }),
  }) as unknown as Tool;

const SAFE = tool(true);
const UNSAFE = tool(false);
const never = new AbortController().signal;
const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe("createReadWriteGate", () => {
  it.each([
    ["safe beside safe", SAFE, SAFE, true],
    ["unsafe after safe", SAFE, UNSAFE, false],
    ["safe after unsafe", UNSAFE, SAFE, false],
    ["unsafe after unsafe", UNSAFE, UNSAFE, false],
  ])("%s: the second starts at once: %s", async (_name, first, second, together) => {
    const gate = createReadWriteGate();
    const release = await gate(first, {}, never);
    const next = gate(second, {}, never);
    expect(await settled(next)).toBe(together);
    release();
    expect(await settled(next)).toBe(true);
  });

  it("keeps arrival order: a safe call behind a waiting unsafe one waits too", async () => {
    const gate = createReadWriteGate();
    const first = await gate(SAFE, {}, never);
    const writer = gate(UNSAFE, {}, never);
    const reader = gate(SAFE, {}, never);
    expect(await settled(reader)).toBe(false);
    first();
    expect(await settled(writer)).toBe(true);
    expect(await settled(reader)).toBe(false);
    (await writer)();
    expect(await settled(reader)).toBe(true);
  });

  it("lets a cancelled waiter go without holding the others", async () => {
    const gate = createReadWriteGate();
    const held = await gate(UNSAFE, {}, never);
    const abort = new AbortController();
    const cancelled = gate(UNSAFE, {}, abort.signal);
    const after = gate(SAFE, {}, never);
    abort.abort();
    expect(await settled(cancelled)).toBe(true);
    held();
    expect(await settled(after)).toBe(true);
  });
});
