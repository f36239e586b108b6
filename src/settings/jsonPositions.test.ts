import { describe, expect, it } from "vitest";
import { JsonSyntaxError, parseJsonWithPositions, positionOf } from "./jsonPositions.ts";

describe("parseJsonWithPositions", () => {
  it.each([
    ['{"a": 1}', { a: 1 }],
    [
      '{"a": [1, 2.5e3, -0.5, true, false, null, "x\\n\\u00e9"]}',
      { a: [1, 2500, -0.5, true, false, null, "x\né"] },
    ],
    ["\ufeff{}", {}],
    ["  [ ]  ", []],
    ['"just a string"', "just a string"],
  ])("parses %s like JSON.parse", (text, expected) => {
    expect(parseJsonWithPositions(text).value).toEqual(expected);
    expect(parseJsonWithPositions(text).value).toEqual(JSON.parse(text.replace(/^\ufeff/, "")));
  });

  it.each([
    ['{\n  "a": 1,\n}', 3, 1, /trailing comma/],
    ['{\n  "a": [1, 2,]\n}', 2, 14, /trailing comma/],
    ['{\n  "a" 1\n}', 2, 7, /expected ':'/],
    ['{\n  // note\n  "a": 1\n}', 2, 3, /comments are not allowed/],
    ["{\n  'a': 1\n}", 2, 3, /expected a property name/],
    ['{"a": tru}', 1, 7, /expected a value/],
    ['{"a": "open', 1, 7, /unterminated string/],
    ['{"a": 1} x', 1, 10, /after the end/],
    ["", 1, 1, /empty/],
    ['{"a": 1\n  "b": 2}', 2, 3, /expected ',' or '}'/],
  ])("reports %j at line %i column %i", (text, line, column, message) => {
    let error: unknown;
    try {
      parseJsonWithPositions(text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(JsonSyntaxError);
    const syntax = error as JsonSyntaxError;
    expect(syntax.message).toMatch(message);
    expect({ line: syntax.position.line, column: syntax.position.column }).toEqual({ line, column });
  });

  it("remembers where each value starts, and falls back to the nearest parent", () => {
    const parsed = parseJsonWithPositions('{\n  "permissions": {\n    "allow": ["Read", 42]\n  }\n}');
    expect(positionOf(parsed, ["permissions", "allow", 1])).toMatchObject({ line: 3, column: 23 });
    expect(positionOf(parsed, ["permissions"])).toMatchObject({ line: 2, column: 18 });
    expect(positionOf(parsed, ["permissions", "missing", 3])).toMatchObject({ line: 2, column: 18 });
  });

  it("keeps a __proto__ key as data", () => {
    const value = parseJsonWithPositions('{"__proto__": {"polluted": true}}').value as Record<
      string,
      unknown
    >;
    expect(Object.keys(value)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
