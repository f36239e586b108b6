import { describe, expect, it } from "vitest";
import { parseFrontmatter } from "./frontmatter.ts";

describe("parseFrontmatter", () => {
  it.each([
    [
      "plain scalars",
      "---\nname: pdf\ndescription: Read PDFs\n---\nBody",
      { name: "pdf", description: "Read PDFs" },
    ],
    [
      "quoted values",
      `---\nname: "a: b"\ndescription: 'it''s'\n---\n`,
      { name: "a: b", description: "it's" },
    ],
    ["a folded block", "---\ndescription: >\n  one\n  two\n---\n", { description: "one two" }],
    ["a literal block", "---\ndescription: |\n  one\n  two\n---\n", { description: "one\ntwo" }],
    ["booleans", "---\ndisable-model-invocation: true\n---\n", { "disable-model-invocation": true }],
    ["a flow list", "---\nallowed-tools: [Read, Grep]\n---\n", { "allowed-tools": ["Read", "Grep"] }],
    [
      "a block list",
      "---\nallowed-tools:\n  - Read\n  - Bash(git:*)\n---\n",
      { "allowed-tools": ["Read", "Bash(git:*)"] },
    ],
    ["CRLF line ends", "---\r\nname: x\r\n---\r\nBody", { name: "x" }],
  ])("reads %s", (_name, text, attributes) => expect(parseFrontmatter(text).attributes).toEqual(attributes));

  it("keeps the body after the front matter, and treats a file without one as all body", () => {
    expect(parseFrontmatter("---\nname: x\n---\n# Title\nText").body).toBe("# Title\nText");
    expect(parseFrontmatter("# Just text\n---\nname: no").attributes).toEqual({});
  });
});
