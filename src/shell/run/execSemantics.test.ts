import { beforeAll, describe, expect, it } from "vitest";
import { initBashParser } from "../analyze/grammar/parse.ts";
import { interpretExitCode, lastCommandName } from "./execSemantics.ts";

beforeAll(async () => {
  await initBashParser();
});

describe("lastCommandName", () => {
  it.each([
    ["grep x file", "grep"],
    ["cat f | grep x", "grep"],
    ["cd src && rg pattern", "rg"],
    ["/usr/bin/grep -q x f", "grep"],
    ["'grep' x f", "grep"],
    ["FOO=1 grep x f", "grep"],
    ["grep x f > out.txt", "grep"],
    ["diff a b # compare", "diff"],
    ["[ -f x ]", "["],
    ["[[ -d x ]]", "["],
    ["test -f x", "test"],
    ["grep x f; exit 1", "exit"],
    ["echo $(ls) | grep x", "grep"],
    ["! grep x f", undefined],
    ["(grep x f)", undefined],
    ["for f in *; do grep x $f; done", undefined],
  ])("%s -> %s", (command, expected) => {
    expect(lastCommandName(command)).toBe(expected);
  });
});

describe("interpretExitCode", () => {
  it.each([
    ["ls", 0, false, undefined],
    ["ls", 2, true, undefined],
    ["grep x f", 1, false, "No matches found"],
    ["grep x f", 2, true, undefined],
    ["rg x", 1, false, "No matches found"],
    ["diff a b", 1, false, "Files differ"],
    ["diff a b", 2, true, undefined],
    ["find . -name x", 1, false, "Some paths could not be read"],
    ["test -f x", 1, false, "Condition is false"],
    ["[ -f x ]", 1, false, "Condition is false"],
    ["grep x f | wc -l", 1, true, undefined],
    ["! grep x f", 1, true, undefined],
    ["sleep 1", null, true, undefined],
  ])("%s exiting %s", (command, code, isError, note) => {
    expect(interpretExitCode(command, code)).toEqual(note ? { isError, note } : { isError });
  });
});
