// Reading one event from stdin: whole, bounded in size and in time, always to an answer.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readEvent } from "./readEvent.ts";

describe("readEvent", () => {
  it("reads an event written in pieces", async () => {
    const stream = new PassThrough();
    const read = readEvent(stream);
    stream.write('{"hook_event_name": "Pre');
    stream.end('ToolUse", "n": 1}');
    expect(await read).toEqual({ ok: true, event: { hook_event_name: "PreToolUse", n: 1 } });
  });

  it("stops reading a huge event and says so", async () => {
    const stream = new PassThrough();
    const read = readEvent(stream, { maxBytes: 1024 });
    stream.write(`{"content": "${"x".repeat(4096)}`);
    const result = await read;
    expect(result).toEqual({ ok: false, problem: "the event is larger than 1024 bytes; not read" });
    stream.destroy();
  });

  it("gives up when nothing complete comes in time", async () => {
    const stream = new PassThrough();
    stream.write('{"half":');
    const result = await readEvent(stream, { timeoutMs: 50 });
    expect(result).toEqual({ ok: false, problem: "no complete event on stdin within 0.05 s" });
    stream.destroy();
  });

  it.each([
    ["", "no event on stdin (expected one JSON object)"],
    ["null", "the event on stdin is not a JSON object"],
    ['"text"', "the event on stdin is not a JSON object"],
  ])("%j is a problem", async (text, problem) => {
    const stream = new PassThrough();
    const read = readEvent(stream);
    stream.end(text);
    expect(await read).toEqual({ ok: false, problem });
  });

  it("reports a stream error", async () => {
    const stream = new PassThrough();
    const read = readEvent(stream);
    stream.destroy(new Error("EIO"));
    expect(await read).toEqual({ ok: false, problem: "stdin failed: EIO" });
  });
});
