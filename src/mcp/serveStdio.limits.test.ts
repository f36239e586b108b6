// `keel mcp` over stdio with messages it must refuse: over the size limit (the same 4 MiB as HTTP), not
// JSON, not JSON-RPC, a batch. Each gets a JSON-RPC error and the server goes on serving.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { idFromMessageEnds, MAX_MESSAGE_BYTES } from "./messageLimits.ts";
import { KEEL_ENTRY, makeWorld, waitFor } from "./testing/harness.ts";

describe("keel mcp over stdio: refused messages", () => {
  let child: ChildProcessWithoutNullStreams;
  const messages: Record<string, unknown>[] = [];
  let buffer = "";
  let exited = false;
  const send = (line: string) => child.stdin.write(`${line}\n`);
  const next = async (what: string) => {
    await waitFor(() => messages.length > 0, what);
    return messages.shift()!;
  };

  beforeAll(async () => {
    const world = makeWorld();
    child = spawn(process.execPath, [KEEL_ENTRY, "--cwd", world.project], { env: world.env });
    child.on("exit", () => {
      exited = true;
    });
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      for (let newline = buffer.indexOf("\n"); newline !== -1; newline = buffer.indexOf("\n")) {
        messages.push(JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>);
        buffer = buffer.slice(newline + 1);
      }
    });
    send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "raw", version: "0" },
        },
      }),
    );
    await next("the initialize response");
    send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  });
  afterAll(() => child.kill());

  it("answers a message over 4 MiB with an error carrying its id, and serves the next one", async () => {
    const text = "y".repeat(MAX_MESSAGE_BYTES + 1024);
    // Written in pieces, as a pipe delivers it; the id comes last, as the SDKs write it.
    const line = JSON.stringify({
      method: "tools/call",
      params: { name: "Echo", arguments: { text } },
      jsonrpc: "2.0",
      id: 42,
    });
    for (let at = 0; at < line.length; at += 1 << 20) child.stdin.write(line.slice(at, at + (1 << 20)));
    child.stdin.write("\n");
    const refused = await next("the refusal");
    expect(refused).toMatchObject({ id: 42, error: { code: -32600 } });
    expect(String((refused.error as { message: string }).message)).toMatch(/at most 4 MiB/);
    send(JSON.stringify({ jsonrpc: "2.0", id: 43, method: "ping" }));
    expect(await next("the ping")).toMatchObject({ id: 43, result: {} });
    expect(exited).toBe(false);
  });

  it.each([
    ["a line that is not JSON", "{oops", -32700, null],
    ["JSON that is not JSON-RPC", JSON.stringify({ id: 7, hello: 1 }), -32600, 7],
    ["a batch", JSON.stringify([{ jsonrpc: "2.0", id: 8, method: "ping" }]), -32600, null],
  ])("answers %s with an error", async (_name, line, code, id) => {
    send(line);
    expect(await next("the error")).toMatchObject({ id, error: { code } });
    send(JSON.stringify({ jsonrpc: "2.0", id: 44, method: "ping" }));
    expect(await next("the ping")).toMatchObject({ id: 44 });
  });
});

describe("the id of a message too large to parse", () => {
  it.each([
    ['{"method":"x","params":{},"jsonrpc":"2.0","id":7}', 7],
    ['{"method":"x","params":{},"jsonrpc":"2.0","id":"abc"}', "abc"],
    ['{"jsonrpc":"2.0","id":12,"method":"x","params":{"text":"…', 12],
    ['{"id":3,"method":"x"', 3],
    // An id inside the params is not the request's.
    ['{"method":"x","params":{"id":5}}', null],
    ['{"method":"x","params":{"a":"\\"id\\":5}"}}', null],
    ["garbage", null],
  ])("%s -> %s", (text, id) => {
    expect(idFromMessageEnds(text.slice(0, 512), text.slice(-512))).toBe(id);
  });
});
