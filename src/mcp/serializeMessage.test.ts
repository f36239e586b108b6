import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import {
  keptEscapedTexts,
  MAX_KEPT,
  MAX_KEPT_CHARS,
  MIN_KEPT_CHARS,
  serializeMessage,
} from "./serializeMessage.ts";

const big = (seed: string) =>
  `${seed}\t"quoted"\\ \n\u0001 é 😀 \ud800 </script>\n`.repeat(MIN_KEPT_CHARS / 20);
const result = (content: unknown[], extra: Record<string, unknown> = {}) =>
  ({ jsonrpc: "2.0", id: 3, result: { ...extra, content } }) as unknown as JSONRPCMessage;

const cases: Array<[string, JSONRPCMessage]> = [
  ["a request", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "Read" } }],
  ["a small text result", result([{ type: "text", text: "one\ttwo\n" }])],
  ["a large text result", result([{ type: "text", text: big("a") }])],
  [
    "large texts among others",
    result([
      { type: "text", text: big("a") },
      { type: "image", data: "x", mimeType: "image/png" },
      { type: "text", text: big("b") },
      { type: "text", text: "small" },
    ]),
  ],
  ["keys before and after content", result([{ type: "text", text: big("c") }], { _meta: { a: 1 } })],
  [
    "the same text twice",
    result([
      { type: "text", text: big("d") },
      { type: "text", text: big("d") },
    ]),
  ],
  [
    "an error flag and structured content after",
    {
      jsonrpc: "2.0",
      id: "x",
      result: {
        content: [{ type: "text", text: big("e") }],
        isError: true,
        structuredContent: { t: big("f") },
      },
    } as unknown as JSONRPCMessage,
  ],
  [
    "a string id that looks like a stand-in",
    {
      jsonrpc: "2.0",
      id: "\u0000keel-00-0",
      result: { content: [{ type: "text", text: big("g") }] },
    } as unknown as JSONRPCMessage,
  ],
  ["a text over the kept size", result([{ type: "text", text: "z".repeat(MAX_KEPT_CHARS + 1) }])],
  ["an error", { jsonrpc: "2.0", id: 2, error: { code: -32602, message: big("h") } }],
];

describe("serializeMessage: JSON.stringify's exact line, large texts escaped once", () => {
  it.each(cases)("%s", (_name, message) => {
    expect(serializeMessage(message)).toBe(JSON.stringify(message));
    // Again, now from the kept escapes.
    expect(serializeMessage(message)).toBe(JSON.stringify(message));
  });

  it("a changed text is escaped afresh", () => {
    const text = big("i");
    expect(serializeMessage(result([{ type: "text", text }]))).toBe(
      JSON.stringify(result([{ type: "text", text }])),
    );
    const changed = `${text.slice(0, -3)}X\n`;
    expect(serializeMessage(result([{ type: "text", text: changed }]))).toBe(
      JSON.stringify(result([{ type: "text", text: changed }])),
    );
  });

  it(`keeps at most ${MAX_KEPT} texts`, () => {
    for (let i = 0; i < MAX_KEPT * 2; i++) serializeMessage(result([{ type: "text", text: big(`n${i}`) }]));
    expect(keptEscapedTexts()).toBe(MAX_KEPT);
  });
});
