// What a fetched body becomes for the model: HTML turned into Markdown (turndown), other text as it is,
// binary refused with a reason.
import { createRequire } from "node:module";
import type TurndownService from "turndown";
import { ToolError } from "../../tool/errors.ts";

const requireLazily = createRequire(import.meta.url);
let turndown: TurndownService | undefined;

/** turndown (and its DOM, domino) load on the first page: about 20 ms that a session never fetching should not pay. */
function service(): TurndownService {
  if (turndown) return turndown;
  const Turndown = requireLazily("turndown") as typeof TurndownService;
  turndown = new Turndown({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  // Code and chrome that carry no readable text.
  turndown.remove(["script", "style", "noscript", "template", "iframe", "svg", "canvas", "head"]);
  return turndown;
}

/** Elements with no readable text, and comments: dropped before parsing, so the DOM stays small. */
const NON_CONTENT =
  /<(script|style|noscript|template|svg|iframe|canvas|head)\b[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->/gi;
const FIRST_SLICE_CHARS = 256 * 1024;

/** Cuts before a tag starts, so the slice ends with whole tags (the parser closes what is open). */
function sliceAtTag(html: string, limit: number): string {
  const cut = html.lastIndexOf("<", limit);
  return html.slice(0, cut > 0 ? cut : limit);
}

export interface Conversion {
  markdown: string;
  /** False when only the beginning of the page was converted (enough for what will be shown). */
  complete: boolean;
}

/**
 * HTML -> Markdown. Converting is the slow part (about 0.5-1 s per MB), and only the first
 * `wantedChars` are ever shown, so a long page is converted from its beginning in growing slices
 * until there is enough.
 */
export function htmlToMarkdown(html: string, wantedChars = Number.POSITIVE_INFINITY): Conversion {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html.slice(0, 20_000))?.[1]?.trim();
  const cleaned = html.replace(NON_CONTENT, "");
  const withTitle = (body: string) =>
    title && !body.startsWith(`# ${title}`) ? `Title: ${title}\n\n${body}` : body;
  for (let limit = FIRST_SLICE_CHARS; ; limit *= 4) {
    const complete = limit >= cleaned.length;
    const markdown = service()
      .turndown(complete ? cleaned : sliceAtTag(cleaned, limit))
      .trim();
    if (complete || markdown.length >= wantedChars) return { markdown: withTitle(markdown), complete };
  }
}

export type ContentKind = "html" | "text";

function mediaType(contentType: string): string {
  return contentType.split(";")[0]!.trim().toLowerCase();
}

const TEXT_TYPES =
  /^(text\/|application\/(json|xml|javascript|ecmascript|x-javascript|ld\+json|x-yaml|yaml|toml|x-sh|graphql)$|application\/[\w.+-]+\+(json|xml)$)/;

/** html, text, or undefined when the body is not text WebFetch can read. */
export function classifyContent(contentType: string, body: Buffer): ContentKind | undefined {
  const type = mediaType(contentType);
  if (type === "text/html" || type === "application/xhtml+xml") return "html";
  if (TEXT_TYPES.test(type)) return "text";
  if (type === "" || type === "application/octet-stream") {
    const head = body.subarray(0, 512).toString("utf8").trimStart().toLowerCase();
    if (head.startsWith("<!doctype html") || head.startsWith("<html")) return "html";
    if (!body.subarray(0, 4096).includes(0)) return "text";
  }
  return undefined;
}

function charsetOf(contentType: string, body: Buffer, kind: ContentKind): string {
  const declared = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
  if (declared) return declared;
  if (kind === "html") {
    const meta = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(body.subarray(0, 4096).toString("latin1"));
    if (meta?.[1]) return meta[1];
  }
  return "utf-8";
}

export function decodeText(contentType: string, body: Buffer, kind: ContentKind): string {
  try {
    return new TextDecoder(charsetOf(contentType, body, kind)).decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

/** The body as Markdown (HTML) or text; a ToolError for binary content. */
export function bodyToMarkdown(
  contentType: string,
  body: Buffer,
  url: string,
  wantedChars = Number.POSITIVE_INFINITY,
): Conversion & { kind: ContentKind } {
  const kind = classifyContent(contentType, body);
  if (!kind)
    throw new ToolError(
      "unsupported_file",
      `${url} is ${mediaType(contentType) || "binary data"} (${body.length} bytes), not a page WebFetch can read as text. Use a text or HTML source instead.`,
    );
  const text = decodeText(contentType, body, kind);
  return kind === "html"
    ? { ...htmlToMarkdown(text, wantedChars), kind }
    : { markdown: text, complete: true, kind };
}
