import { expect, it } from "vitest";
import { isTrivialAwkProgram } from "./awkProgram.ts";

it.each([
  ["{print $1}", true],
  ["{ print $1, $NF }", true],
  ["NR>1 {print $2}", true],
  ["/error/", true],
  ['$3 == "x" {print $1}', true],
  ["{print}", true],
  ["", false],
  ['BEGIN{system("id")}', false],
  ['{print > "/tmp/x"}', false],
  ['{print | "sh"}', false],
  ['{ "id" | getline x }', false],
  ['{print $1; system("id")}', false],
  ['{print ENVIRON["HOME"]}', false],
])("%j trivial: %s", (program, expected) => {
  expect(isTrivialAwkProgram(program)).toBe(expected);
});
