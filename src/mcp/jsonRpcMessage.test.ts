import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { toJsonRpcMessage } from "./jsonRpcMessage.ts";

/** Each case as a line of JSON, parsed as the transports parse it (so `__proto__` is an own key). */
const accepted: Array<[string, string]> = [
  [
    "a tools/call request",
    '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"Read","arguments":{}}}',
  ],
  ["a string id", '{"jsonrpc":"2.0","id":"a-1","method":"tools/list"}'],
  ["id 0 and a negative id", '{"jsonrpc":"2.0","id":-3,"method":"ping","params":{}}'],
  ["a progress token", '{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"progressToken":"t"}}}'],
  [
    "other _meta keys",
    '{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"progressToken":3,"k":[1]}}}',
  ],
  ["a notification", '{"jsonrpc":"2.0","method":"notifications/initialized"}'],
  [
    "a notification with params",
    '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}',
  ],
  ["a result (answered by the schema)", '{"jsonrpc":"2.0","id":4,"result":{"roots":[]}}'],
  ["an error (answered by the schema)", '{"jsonrpc":"2.0","id":4,"error":{"code":-1,"message":"no","x":1}}'],
  [
    "__proto__ in params (the schema's copy)",
    '{"jsonrpc":"2.0","id":1,"method":"x","params":{"__proto__":{"a":1},"b":2}}',
  ],
  [
    "related-task metadata (the schema's copy)",
    '{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t","y":1}}}}',
  ],
];

const refused: Array<[string, string]> = [
  ["jsonrpc 1.0", '{"jsonrpc":"1.0","id":1,"method":"x"}'],
  ["no jsonrpc", '{"id":1,"method":"x"}'],
  ["a key JSON-RPC does not have", '{"jsonrpc":"2.0","id":1,"method":"x","extra":true}'],
  ["a fractional id", '{"jsonrpc":"2.0","id":1.5,"method":"x"}'],
  ["an id past the safe integers", '{"jsonrpc":"2.0","id":9007199254740992,"method":"x"}'],
  ["a null id", '{"jsonrpc":"2.0","id":null,"method":"x"}'],
  ["an object id", '{"jsonrpc":"2.0","id":{},"method":"x"}'],
  ["a numeric method", '{"jsonrpc":"2.0","id":1,"method":5}'],
  ["params as an array", '{"jsonrpc":"2.0","id":1,"method":"x","params":[1]}'],
  ["params null", '{"jsonrpc":"2.0","id":1,"method":"x","params":null}'],
  ["params a string", '{"jsonrpc":"2.0","id":1,"method":"x","params":"p"}'],
  ["_meta an array", '{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":[]}}'],
  [
    "a fractional progress token",
    '{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"progressToken":0.5}}}',
  ],
  [
    "an object progress token",
    '{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"progressToken":{}}}}',
  ],
  ["__proto__ at the top", '{"jsonrpc":"2.0","id":1,"method":"x","__proto__":{}}'],
  ["an array", '[{"jsonrpc":"2.0","id":1,"method":"x"}]'],
  ["a string", '"hello"'],
  ["null", "null"],
];

describe("toJsonRpcMessage: the SDK schema's answer, found faster for plain requests and notifications", () => {
  it.each(accepted)("accepts %s, handing on what the schema hands on", (_name, line) => {
    const expected = JSONRPCMessageSchema.safeParse(JSON.parse(line));
    expect(expected.success).toBe(true);
    const message = toJsonRpcMessage(JSON.parse(line));
    expect(message).toStrictEqual(expected.data);
  });

  it.each(refused)("refuses %s, as the schema does", (_name, line) => {
    expect(JSONRPCMessageSchema.safeParse(JSON.parse(line)).success).toBe(false);
    expect(toJsonRpcMessage(JSON.parse(line))).toBeUndefined();
  });

  it("hands on a plain request itself, with no copy made", () => {
    const value = JSON.parse(accepted[0]![1]);
    expect(toJsonRpcMessage(value)).toBe(value);
  });
});
