import { describe, expect, it } from "vitest";
import { numberLines } from "../shared/diff.ts";
import {
  numberContent,
  type ReadOutput,
  readResultChars,
  readResultContent,
  type TextFileView,
} from "./output.ts";

function text(content: string, numLines: number, extra: Partial<TextFileView> = {}): ReadOutput {
  return {
    type: "text",
    file: {
      filePath: "/p/f.txt",
      content,
      numLines,
      startLine: 1,
      totalLines: numLines,
      hasMore: false,
      cutLines: 0,
      encoding: "utf8",
      maxLineChars: 2000,
      ...extra,
    },
  };
}

describe("readResultChars: the size of what the model is shown, counted without rendering", () => {
  it.each<[string, ReadOutput]>([
    ["one line", text("hello", 1)],
    ["an empty line", text("", 1)],
    ["empty lines between", text("a\n\n\nb", 4)],
    ["a trailing empty line", text("a\n", 2)],
    ["numbers past 999,999 widen the column", text("x\ny\nz", 3, { startLine: 999_998 })],
    ["numbers past 9,999,999", text("x\ny", 2, { startLine: 9_999_999 })],
    ["more to read", text("a\nb", 2, { startLine: 5, hasMore: true, totalLines: 40 })],
    ["more, total unknown", text("a", 1, { hasMore: true, totalLines: undefined })],
    ["cut lines", text("a\nb", 2, { cutLines: 2 })],
    ["one cut line and more", text("a", 1, { cutLines: 1, hasMore: true })],
    ["empty file", { type: "empty", file: { filePath: "/p/f.txt" } }],
    ["past the end", { type: "past_end", file: { filePath: "/p/f.txt", offset: 9, totalLines: 2 } }],
    [
      "pdf pages",
      { type: "pdf", file: { filePath: "/p/f.pdf", totalPages: 3, pages: [{ page: 2, text: "two" }] } },
    ],
  ])("%s", (_name, output) => {
    const content = readResultContent(output);
    expect(typeof content).toBe("string");
    expect(readResultChars(output)).toBe((content as string).length);
  });
});

describe("numberContent: Read's one-pass numbering is numberLines' format", () => {
  it.each<[string, number]>([
    ["", 1],
    ["one", 1],
    ["a\nb\nc", 1],
    ["a\n\n", 7],
    ["\n", 1],
    ["tab\there\nand\r\n", 98],
    ["x\ny\nz", 999_998],
    ["x\ny", 9_999_999],
  ])("%j from line %i", (content, startLine) => {
    expect(numberContent(content, startLine)).toBe(numberLines(content.split("\n"), startLine));
  });
});
