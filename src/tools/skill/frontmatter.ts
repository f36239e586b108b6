// The YAML front matter of SKILL.md files, enough of YAML for them: `key: value` scalars (plain or
// quoted), `|` and `>` blocks, and lists (`[a, b]` or `- item` lines). Anything else is kept as text.
import { readFile } from "node:fs/promises";

export type FrontmatterValue = string | boolean | string[];

export interface ParsedDocument {
  attributes: Record<string, FrontmatterValue>;
  body: string;
}

function unquote(value: string): string {
  const text = value.trim();
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    try {
      return JSON.parse(text) as string;
    } catch {
      return text.slice(1, -1);
    }
  }
  if (text.length >= 2 && text.startsWith("'") && text.endsWith("'"))
    return text.slice(1, -1).replace(/''/g, "'");
  return text.replace(/\s+#.*$/, "");
}

function scalar(value: string): FrontmatterValue {
  const text = unquote(value);
  if (value.trim() === "true") return true;
  if (value.trim() === "false") return false;
  if (value.trim().startsWith("[") && value.trim().endsWith("]"))
    return value
      .trim()
      .slice(1, -1)
      .split(",")
      .map((item) => unquote(item))
      .filter((item) => item !== "");
  return text;
}

function parseAttributes(lines: string[]): Record<string, FrontmatterValue> {
  const attributes: Record<string, FrontmatterValue> = {};
  for (let i = 0; i < lines.length; i++) {
    const match = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(lines[i]!);
    if (!match) continue;
    const key = match[1]!;
    const rest = match[2]!;
    const nested: string[] = [];
    while (i + 1 < lines.length && (/^\s+\S/.test(lines[i + 1]!) || lines[i + 1]!.trim() === ""))
      nested.push(lines[++i]!);
    while (nested.length > 0 && nested[nested.length - 1]!.trim() === "") nested.pop();
    const block = /^([|>])[-+]?\s*$/.exec(rest.trim());
    if (block) {
      const indent = Math.min(...nested.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length));
      const text = nested.map((l) => l.slice(indent));
      attributes[key] = block[1] === "|" ? text.join("\n") : text.join(" ").replace(/\s+/g, " ").trim();
    } else if (rest.trim() === "" && nested.some((l) => /^\s*-\s/.test(l))) {
      attributes[key] = nested.filter((l) => /^\s*-\s/.test(l)).map((l) => unquote(l.replace(/^\s*-\s/, "")));
    } else if (rest.trim() === "") {
      attributes[key] = nested.map((l) => l.trim()).join(" ");
    } else {
      const value = scalar(rest);
      attributes[key] =
        typeof value === "string" && nested.length > 0
          ? [value, ...nested.map((l) => l.trim())].join(" ")
          : value;
    }
  }
  return attributes;
}

/** Splits `---\n<yaml>\n---\n<body>`; a document without front matter is all body. */
export function parseFrontmatter(text: string): ParsedDocument {
  const source = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const match = /^---[ \t]*\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(source);
  if (!match) return { attributes: {}, body: source };
  return { attributes: parseAttributes(match[1]!.split("\n")), body: source.slice(match[0].length) };
}

/** A Markdown file split into front matter and body, or undefined when it cannot be read. */
export async function readFrontmatterFile(path: string): Promise<ParsedDocument | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return undefined;
  }
  return parseFrontmatter(text);
}
