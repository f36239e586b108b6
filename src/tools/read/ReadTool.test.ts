import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decidePermission } from "../../permissions/engine.ts";
import { addRules } from "../../tool/context.ts";
import { sha256 } from "../shared/readState.ts";
import {
  createFileToolSession,
  type FileToolSession,
  runTool,
  runToolText,
  toolError,
} from "../shared/testSession.ts";
import { UNCHANGED_STUB } from "./output.ts";
import { makePdf } from "./pdfFixture.ts";
import { ReadTool } from "./ReadTool.ts";
import { readTextFile } from "./readText.ts";

let s: FileToolSession;
beforeAll(() => {
  s = createFileToolSession();
});
afterAll(() => s.cleanup());

const read = (input: Record<string, unknown>) => runToolText(ReadTool, input, s.context);
const readError = (input: Record<string, unknown>) => toolError(runTool(ReadTool, input, s.context));
let counter = 0;
function file(content: string | Buffer, name = `f${++counter}.txt`): string {
  const path = s.path(name);
  writeFileSync(path, content);
  return path;
}

describe("Read: text", () => {
  it("numbers lines cat -n style: number right-aligned in 6 columns, then a tab", async () => {
    const path = file("alpha\nbeta\n");
    expect(await read({ file_path: path })).toBe("     1\talpha\n     2\tbeta");
  });

  it("CRLF files show without carriage returns", async () => {
    expect(await read({ file_path: file("a\r\nb\r\n") })).toBe("     1\ta\n     2\tb");
  });

  it("strips a UTF-8 BOM", async () => {
    expect(await read({ file_path: file(Buffer.from([0xef, 0xbb, 0xbf, 0x68, 0x69])) })).toBe("     1\thi");
  });

  it.each([
    ["utf16le", [0xff, 0xfe], (text: string) => Buffer.from(text, "utf16le")],
    ["utf16be", [0xfe, 0xff], (text: string) => Buffer.from(text, "utf16le").swap16()],
  ])("decodes %s by its BOM", async (_name, bom, encode) => {
    const path = file(Buffer.concat([Buffer.from(bom), encode("héllo\nwörld\n")]));
    expect(await read({ file_path: path })).toBe("     1\théllo\n     2\twörld");
  });

  it("shows bytes that are not UTF-8 one character per byte instead of mangling them", async () => {
    const path = file(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    expect(await read({ file_path: path })).toBe("     1\tcafé");
  });

  it("offset and limit pick a range and say how to continue", async () => {
    const path = file(Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n"));
    const text = await read({ file_path: path, offset: 3, limit: 2 });
    expect(text).toBe(
      "     3\tline 3\n     4\tline 4\n\n(Showing lines 3-4 of 10; the file has more. Use offset=5 to continue.)",
    );
    expect(await read({ file_path: path, offset: 9 })).toBe("     9\tline 9\n    10\tline 10");
  });

  it("reads 2,000 lines by default", async () => {
    const path = file(Array.from({ length: 2500 }, (_, i) => `${i + 1}`).join("\n"));
    const text = await read({ file_path: path });
    expect(text.split("\n").filter((line) => /^ +\d+\t/.test(line))).toHaveLength(2000);
    expect(text).toContain("Use offset=2001 to continue.");
  });

  it("cuts lines longer than 2,000 characters with a marker", async () => {
    const path = file(`${"x".repeat(5000)}\nshort\n`);
    const text = await read({ file_path: path });
    expect(text).toContain(`     1\t${"x".repeat(2000)}… [line cut at 2000 characters]`);
    expect(text).toContain("     2\tshort");
    expect(text).toContain("1 line was longer than 2000 characters and cut");
  });

  it("refuses output over 25,000 tokens and advises offset/limit", async () => {
    const path = file(Array.from({ length: 2000 }, () => "y".repeat(100)).join("\n"));
    const error = await readError({ file_path: path });
    expect(error.code).toBe("too_large");
    expect(error.message).toMatch(/offset and limit/);
    expect(await read({ file_path: path, limit: 100 })).toContain("   100\t");
  });

  it("says when a file is empty", async () => {
    expect(await read({ file_path: file("") })).toMatch(/contents are empty/);
  });

  it("says when the offset is past the end", async () => {
    expect(await read({ file_path: file("a\nb\n"), offset: 10 })).toMatch(
      /shorter than the offset given \(10\): it has 2 lines/,
    );
  });
});

describe("Read: whole and streamed reads agree", () => {
  it.each([
    ["UTF-8 with CRLF and a long line", Buffer.from(`a\r\n${"é".repeat(2500)}\nlast`)],
    ["UTF-16 LE", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("x\ny\nz\n", "utf16le")])],
    ["latin1", Buffer.from([0x61, 0x0a, 0xe9, 0x0a])],
    // Shown as is (no line reshaped): the text itself becomes the view.
    ["plain lines", Buffer.from("one\ntwo\nthree\n")],
    ["no final newline", Buffer.from("one\ntwo")],
    ["only a newline", Buffer.from("\n")],
    ["empty lines at the end", Buffer.from("a\n\n\n")],
    ["a line of exactly 2,000 characters", Buffer.from(`${"x".repeat(2000)}\nshort\n`)],
    ["a line of 2,001 characters", Buffer.from(`${"x".repeat(2001)}\nshort\n`)],
    ["a carriage return inside a line", Buffer.from("a\rb\nc\n")],
  ])("%s", async (_name, bytes) => {
    const path = file(bytes);
    const stats = statSync(path);
    for (const [offset, limit] of [
      [1, 2000],
      [1, 1],
      [2, 1],
      [9, 5],
    ] as const) {
      const whole = await readTextFile(path, stats, { offset, limit });
      // Small files are read synchronously; the asynchronous whole read must give the same.
      const wholeAsync = await readTextFile(path, stats, { offset, limit, smallReadMaxBytes: 0 });
      expect(wholeAsync).toEqual(whole);
      const streamed = await readTextFile(path, stats, { offset, limit, fullReadMaxBytes: 0 });
      // Streaming stops at the range, so it knows the line count only when the range reached the end.
      const known =
        streamed.output.type === "text" &&
        streamed.output.file.totalLines === undefined &&
        whole.output.type === "text"
          ? { ...whole.output, file: { ...whole.output.file, totalLines: undefined } }
          : whole.output;
      expect(streamed.output).toEqual(known);
      expect(streamed.record.hash).toBe("");
      expect(whole.record.hash).toBe(sha256(bytes));
    }
  });
});

describe("Read: refusals", () => {
  it("refuses binary files", async () => {
    expect((await readError({ file_path: file(Buffer.from([1, 2, 0, 3, 4])) })).code).toBe(
      "unsupported_file",
    );
    expect((await readError({ file_path: file("MZ", "tool.exe") })).code).toBe("unsupported_file");
  });

  it("refuses directories and suggests LS", async () => {
    mkdirSync(s.path("dir"));
    const error = await readError({ file_path: s.path("dir") });
    expect(error.code).toBe("is_directory");
    expect(error.message).toMatch(/LS/);
  });

  it.each(["/dev/zero", "/dev/null", "/dev/stdin"])(
    "refuses the device %s without opening it",
    async (device) => {
      const error = await readError({ file_path: device });
      expect(error.code).toBe("unsupported_file");
    },
  );

  it("refuses a FIFO without blocking on it", async () => {
    const fifo = s.path("pipe");
    execFileSync("mkfifo", [fifo]);
    expect((await readError({ file_path: fifo })).message).toMatch(/FIFO/);
  });

  it("refuses a FIFO put in place of a small file after its stat, without blocking on it", async () => {
    const path = file("small\n");
    const stats = statSync(path);
    rmSync(path);
    execFileSync("mkfifo", [path]);
    await expect(readTextFile(path, stats, { offset: 1, limit: 10 })).rejects.toMatchObject({
      code: "unsupported_file",
    });
  });

  it("refuses a socket", async () => {
    const socketPath = s.path("sock");
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      expect((await readError({ file_path: socketPath })).message).toMatch(/socket/);
    } finally {
      server.close();
    }
  });

  it("a missing file suggests similar names from the same folder", async () => {
    file("config.json", "config.json");
    const error = await readError({ file_path: s.path("confg.json") });
    expect(error.code).toBe("file_not_found");
    expect(error.message).toContain(`Did you mean ${s.path("config.json")}?`);
  });

  it("a Read deny rule refuses in validation and in call", async () => {
    const path = file("SECRET=1", "deny.env");
    const context = {
      ...s.context,
      getAppState: () => ({
        ...s.context.getAppState(),
        toolPermissionContext: addRules(s.context.getAppState().toolPermissionContext, "deny", "project", [
          "Read(*.env)",
        ]),
      }),
    };
    const error = await toolError(runTool(ReadTool, { file_path: path }, context));
    expect(error.code).toBe("permission_denied");
    await expect(
      ReadTool.call(
        { file_path: path },
        context,
        async () => ({ behavior: "allow" }),
        undefined,
        () => {},
      ),
    ).rejects.toThrow(/denied/);
  });
});

describe("Read: readFileState", () => {
  it("records content, sha256, mtime and whether the view was partial", async () => {
    const content = "one\ntwo\nthree\n";
    const path = file(content);
    await read({ file_path: path });
    const record = s.context.readFileState.get(path);
    expect(record).toMatchObject({ content, hash: sha256(Buffer.from(content)), isPartialView: false });
    expect(record?.mtimeMs).toBe(statSync(path).mtimeMs);
    await read({ file_path: path, offset: 2, limit: 1 });
    expect(s.context.readFileState.get(path)?.isPartialView).toBe(true);
  });

  it("an unchanged re-read returns the short stub; a change or another range reads again", async () => {
    const path = file("v1\n");
    expect(await read({ file_path: path })).toBe("     1\tv1");
    expect(await read({ file_path: path })).toBe(UNCHANGED_STUB);
    expect(await read({ file_path: path, limit: 1 })).toBe("     1\tv1");
    writeFileSync(path, "v2\n");
    utimesSync(path, new Date(), new Date(Date.now() + 5000));
    expect(await read({ file_path: path, limit: 1 })).toBe("     1\tv2");
  });
});

describe("Read: images, PDFs, notebooks", () => {
  it("returns a small image as it is", async () => {
    const png = await sharp({ create: { width: 20, height: 10, channels: 3, background: "#f00" } })
      .png()
      .toBuffer();
    const path = file(png, "small.png");
    const { data } = await runTool(ReadTool, { file_path: path }, s.context);
    expect(data.type).toBe("image");
    const block = ReadTool.mapToolResultToToolResultBlockParam(data, "t");
    expect(block.content).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/png", data: png.toString("base64") } },
    ]);
  });

  it("downscales a large image to fit 2000x2000", async () => {
    const png = await sharp({ create: { width: 4000, height: 1000, channels: 3, background: "#0a0" } })
      .png()
      .toBuffer();
    const { data } = await runTool(ReadTool, { file_path: file(png, "wide.png") }, s.context);
    if (data.type !== "image") throw new Error("expected an image");
    expect(data.file.dimensions).toMatchObject({
      originalWidth: 4000,
      displayWidth: 2000,
      displayHeight: 500,
    });
    const decoded = await sharp(Buffer.from(data.file.base64, "base64")).metadata();
    expect([decoded.width, decoded.height]).toEqual([2000, 500]);
  });

  it("reads PDF pages as text", async () => {
    const path = file(makePdf(["First page", "Second page", "Third page"]), "doc.pdf");
    const text = await read({ file_path: path });
    expect(text).toMatch(/3 pages; showing pages 1, 2, 3/);
    expect(text).toMatch(/<page number="2">\nSecond page\n<\/page>/);
    expect(await read({ file_path: path, pages: "3" })).toMatch(/<page number="3">\nThird page/);
  });

  it("requires pages for PDFs over 10 pages, and at most 20 per call", async () => {
    const path = file(makePdf(Array.from({ length: 25 }, (_, i) => `Page ${i + 1}`)), "long.pdf");
    expect((await readError({ file_path: path })).code).toBe("invalid_input");
    expect((await readError({ file_path: path, pages: "1-21" })).message).toMatch(/at most 20/);
    const text = await read({ file_path: path, pages: "12-13" });
    expect(text).toMatch(/Page 12[\s\S]*Page 13/);
    expect(text).not.toMatch(/Page 14/);
    expect((await readError({ file_path: file("x"), pages: "1" })).code).toBe("invalid_input");
    expect((await readError({ file_path: path, pages: "abc" })).code).toBe("invalid_input");
  });

  it("shows notebooks as cells with ids, sources and outputs, images as blocks", async () => {
    const pixel = (
      await sharp({ create: { width: 1, height: 1, channels: 3, background: "#000" } })
        .png()
        .toBuffer()
    ).toString("base64");
    const notebook = {
      nbformat: 4,
      nbformat_minor: 5,
      metadata: {},
      cells: [
        { id: "intro", cell_type: "markdown", metadata: {}, source: ["# Title\n", "text"] },
        {
          id: "calc",
          cell_type: "code",
          metadata: {},
          execution_count: 2,
          source: "print(1+1)",
          outputs: [
            { output_type: "stream", name: "stdout", text: ["2\n"] },
            {
              output_type: "display_data",
              data: { "image/png": pixel, "text/plain": "<Figure>" },
              metadata: {},
            },
          ],
        },
      ],
    };
    const path = file(JSON.stringify(notebook, null, 1), "nb.ipynb");
    const { data } = await runTool(ReadTool, { file_path: path }, s.context);
    const block = ReadTool.mapToolResultToToolResultBlockParam(data, "t");
    const content = block.content as Array<{ type: string; text?: string }>;
    const text = content
      .filter((part) => part.type === "text")
      .map((part) => part.text)
      .join("\n");
    expect(text).toContain('<cell id="intro" type="markdown">\n# Title\ntext\n</cell>');
    expect(text).toContain('<cell id="calc" type="code" execution_count="2">\nprint(1+1)\n</cell>');
    expect(text).toContain("2\n");
    expect(content.some((part) => part.type === "image")).toBe(true);
    expect(s.context.readFileState.get(path)?.isPartialView).toBe(false);
  });
});

describe("Read: permissions", () => {
  it("reads inside the working directories are allowed; outside, and through a symlink out, ask", async () => {
    const inside = file("in");
    const outsideDir = `${s.base}/elsewhere`;
    mkdirSync(outsideDir, { recursive: true });
    writeFileSync(`${outsideDir}/secret.txt`, "s");
    symlinkSync(`${outsideDir}/secret.txt`, s.path("link.txt"));
    expect((await decidePermission(ReadTool, { file_path: inside }, s.context)).behavior).toBe("allow");
    for (const path of [
      `${outsideDir}/secret.txt`,
      s.path("link.txt"),
      s.path("..", "elsewhere", "secret.txt"),
    ]) {
      const result = await decidePermission(ReadTool, { file_path: path }, s.context);
      expect(result.behavior).toBe("ask");
      if (result.behavior === "ask")
        expect(result.decisionReason).toMatchObject({ type: "tool", check: "outside-working-dirs" });
    }
  });
});
