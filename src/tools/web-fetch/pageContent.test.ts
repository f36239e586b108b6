import { describe, expect, it } from "vitest";
import { bodyToMarkdown, classifyContent, decodeText, htmlToMarkdown } from "./pageContent.ts";

const paragraphs = (n: number) =>
  Array.from({ length: n }, (_, i) => `<p>Paragraph ${i} of the page.</p>`).join("");

describe("htmlToMarkdown", () => {
  it("drops scripts, styles, comments, svg and the head, keeping the title", () => {
    const html = `<html><head><title>T</title><meta name="x"></head><body><!-- hidden --><script>var a = "</p>";</script>
      <style>p{}</style><svg><text>svg text</text></svg><h1>Hello</h1><p>World</p></body></html>`;
    const { markdown, complete } = htmlToMarkdown(html);
    expect(complete).toBe(true);
    expect(markdown).toBe("Title: T\n\n# Hello\n\nWorld");
  });

  it("converts only the beginning of a long page when that gives enough Markdown", () => {
    const html = `<body>${paragraphs(40_000)}</body>`;
    const partial = htmlToMarkdown(html, 10_000);
    expect(partial.complete).toBe(false);
    expect(partial.markdown.length).toBeGreaterThanOrEqual(10_000);
    expect(partial.markdown.startsWith("Paragraph 0 of the page.")).toBe(true);
    expect(partial.markdown).not.toContain("Paragraph 39999");
    const whole = htmlToMarkdown(html);
    expect(whole.complete).toBe(true);
    expect(whole.markdown).toContain("Paragraph 39999 of the page.");
  });
});

describe("content types", () => {
  it.each([
    ["text/html; charset=utf-8", "<p>x</p>", "html"],
    ["application/xhtml+xml", "<p>x</p>", "html"],
    ["text/plain", "x", "text"],
    ["application/json", "{}", "text"],
    ["application/vnd.api+json", "{}", "text"],
    ["", "<!DOCTYPE html><p>x</p>", "html"],
    ["", "just words", "text"],
    ["image/png", "\u0089PNG", undefined],
    ["application/octet-stream", "\u0000\u0001", undefined],
  ])("%j with %j -> %s", (type, body, kind) =>
    expect(classifyContent(type, Buffer.from(body, "latin1"))).toBe(kind),
  );

  it("decodes the declared charset, from the header or a meta tag", () => {
    const latin1 = Buffer.from("caf\u00e9", "latin1");
    expect(decodeText("text/plain; charset=iso-8859-1", latin1, "text")).toBe("café");
    const html = Buffer.concat([Buffer.from('<meta charset="windows-1252"><p>'), latin1]);
    expect(decodeText("text/html", html, "html")).toContain("café");
    expect(decodeText("text/plain; charset=bogus", Buffer.from("ok"), "text")).toBe("ok");
  });

  it("refuses binary bodies with a reason naming the type", () => {
    expect(() => bodyToMarkdown("application/pdf", Buffer.from("%PDF"), "https://x/a.pdf")).toThrow(
      /application\/pdf/,
    );
  });
});
