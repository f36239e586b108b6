// Error messages quote at most ~1 KB of a long input string, wherever the string sits in the input.
import { describe, expect, it } from "vitest";
import { clipEchoedInput, clipForEcho, MAX_ECHO_CHARS } from "./errors.ts";

const long = "a".repeat(2 * 1024 * 1024);
const other = "b".repeat(5_000);

describe("clipEchoedInput", () => {
  it.each([
    ["a long path quoted twice", `Cannot read ${long}: no such file (${long})`, { file_path: long }, 2],
    ["a long value nested in the input", `bad value ${other}`, { edits: [{ old_string: other }] }, 1],
    ["the tool name itself", `No tool named "${other}"`, [other, {}], 1],
  ])("clips %s", (_name, message, input, quotes) => {
    const clipped = clipEchoedInput(message, input);
    expect(clipped.length).toBeLessThan(quotes * (MAX_ECHO_CHARS + 100) + 100);
    expect(clipped.match(/more characters not shown/g)).toHaveLength(quotes);
  });

  it.each([
    ["a short message", "File not found: /tmp/x", { file_path: "/tmp/x" }],
    ["a long message that quotes no input", `output:\n${"c".repeat(10_000)}`, { command: "make" }],
    ["a short input in a long message", `${"d".repeat(5_000)} /tmp/x`, { file_path: "/tmp/x" }],
  ])("leaves %s alone", (_name, message, input) => {
    expect(clipEchoedInput(message, input)).toBe(message);
  });

  it("keeps the first 1 KB and says how much more there was", () => {
    expect(clipForEcho("x".repeat(1_500))).toBe(`${"x".repeat(1_024)}… [476 more characters not shown]`);
  });
});
