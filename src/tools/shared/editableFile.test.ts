import { describe, expect, it } from "vitest";
import { describeChange } from "./diff.ts";
import { type LoadedTextFile, spliceBytes, type TextSplice } from "./editableFile.ts";
import { decodeText, encodeText } from "./encoding.ts";

function loaded(bytes: Buffer): LoadedTextFile {
  const { text, format } = decodeText(bytes);
  return { path: "/x", bytes, text, format, stats: {} as LoadedTextFile["stats"] };
}

function applied(text: string, splices: TextSplice[]): string {
  let out = "";
  let from = 0;
  for (const splice of splices) {
    out += text.slice(from, splice.index) + splice.replacement;
    from = splice.index + splice.length;
  }
  return out + text.slice(from);
}

describe("spliceBytes: the same bytes as encoding the whole new text", () => {
  const cases: Array<[string, Buffer, (text: string) => TextSplice[]]> = [
    [
      "ASCII",
      Buffer.from("alpha beta gamma\n"),
      (t) => [{ index: t.indexOf("beta"), length: 4, replacement: "BETA!" }],
    ],
    [
      "UTF-8 with BOM, several sites around multi-byte text",
      Buffer.from("\ufeffé one é two 😀 three\n"),
      (t) => [
        { index: t.indexOf("one"), length: 3, replacement: "ün" },
        { index: t.indexOf("😀"), length: 2, replacement: "🎉🎉" },
        { index: t.indexOf("three"), length: 5, replacement: "" },
      ],
    ],
    [
      "latin1",
      Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x31, 0x0a]),
      () => [{ index: 5, length: 1, replacement: "ÿ2" }],
    ],
    [
      "insertion at the start and the end",
      Buffer.from("middle"),
      (t) => [
        { index: 0, length: 0, replacement: "start " },
        { index: t.length, length: 0, replacement: " end" },
      ],
    ],
  ];
  for (const [name, bytes, sites] of cases) {
    it(name, () => {
      const file = loaded(bytes);
      const splices = sites(file.text);
      const pieces = spliceBytes(file, splices);
      expect(pieces).toBeDefined();
      expect(Buffer.concat(pieces ?? [])).toEqual(encodeText(applied(file.text, splices), file.format));
    });
  }

  it("declines UTF-16 and spans that split a surrogate pair", () => {
    const utf16 = loaded(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("abc", "utf16le")]));
    expect(spliceBytes(utf16, [{ index: 0, length: 1, replacement: "x" }])).toBeUndefined();
    const emoji = loaded(Buffer.from("a😀b"));
    expect(spliceBytes(emoji, [{ index: 2, length: 1, replacement: "x" }])).toBeUndefined();
  });
});

describe("describeChange", () => {
  const before = `${Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n")}\n`;
  const after = before.replace("line 10\n", "line ten\nline 10.5\n");

  it("gives whole-file line numbers, the same with or without a known span", () => {
    const found = describeChange(before, after);
    const index = before.indexOf("line 10\n");
    const known = describeChange(before, after, {
      prefix: index,
      suffix: before.length - index - "line 10\n".length,
    });
    expect(found.firstLine).toBe(10);
    expect(found.hunks?.[0]).toMatchObject({ oldStart: 7, newStart: 7, oldLines: 7, newLines: 8 });
    expect(found.hunks).toEqual(known.hunks);
    expect(found.snippet).toBe(known.snippet);
    expect(found.snippet.split("\n")[0]).toBe("     6\tline 6");
    expect(found.snippet).toContain("    11\tline 10.5");
  });

  it("handles a change on the first line, a new file and CRLF", () => {
    expect(describeChange("a\nb\n", "A\nb\n").hunks?.[0]?.lines).toEqual(["-a", "+A", " b"]);
    expect(describeChange("", "x\ny\n").hunks?.[0]).toMatchObject({
      oldLines: 0,
      newLines: 2,
      lines: ["+x", "+y"],
    });
    expect(describeChange("a\r\nb\r\n", "a\r\nB\r\n").snippet).toBe("     1\ta\n     2\tB");
  });
});
