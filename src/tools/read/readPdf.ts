// PDFs come back as text by page range (unpdf, i.e. PDF.js): at most 20 pages a call, and more
// than 10 pages need an explicit range.
import { readFile } from "node:fs/promises";
import { ToolError } from "../../tool/errors.ts";
import type { ReadOutput } from "./output.ts";

export const MAX_PDF_PAGES_PER_CALL = 20;
export const PDF_PAGES_WITHOUT_RANGE = 10;
const MAX_PDF_BYTES = 100 << 20;

/** "3", "1-5", "2,4-6", "8-" (to the end): sorted, distinct 1-based pages. Throws on bad syntax. */
export function parsePageRange(spec: string, totalPages: number): number[] {
  const pages = new Set<number>();
  for (const part of spec.split(",").map((p) => p.trim())) {
    const match = /^(\d+)(?:\s*-\s*(\d*))?$/.exec(part);
    if (!match)
      throw new ToolError(
        "invalid_input",
        `pages "${spec}" is not a page range; write e.g. "3", "1-5" or "2,4-6".`,
      );
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : match[2] === "" ? totalPages : Number(match[2]);
    if (first < 1 || last < first) {
      throw new ToolError(
        "invalid_input",
        `pages "${spec}": pages are numbered from 1 and a range must go upwards.`,
      );
    }
    if (first > totalPages) {
      throw new ToolError(
        "invalid_input",
        `pages "${spec}": the PDF has only ${totalPages} page${totalPages === 1 ? "" : "s"}.`,
      );
    }
    for (let page = first; page <= Math.min(last, totalPages); page++) {
      pages.add(page);
      if (pages.size > MAX_PDF_PAGES_PER_CALL) {
        throw new ToolError(
          "invalid_input",
          `pages "${spec}" asks for more than ${MAX_PDF_PAGES_PER_CALL} pages; read at most ${MAX_PDF_PAGES_PER_CALL} pages per call.`,
        );
      }
    }
  }
  return [...pages].sort((a, b) => a - b);
}

/** Syntax only, before the file is opened (validateInput). */
export function pageRangeSyntaxError(spec: string): string | undefined {
  try {
    parsePageRange(spec, Number.MAX_SAFE_INTEGER);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

export async function readPdf(
  path: string,
  size: number,
  pagesSpec: string | undefined,
): Promise<ReadOutput> {
  if (size > MAX_PDF_BYTES) {
    throw new ToolError(
      "too_large",
      `${path} is ${size} bytes; PDFs over ${MAX_PDF_BYTES} bytes are not read.`,
    );
  }
  const data = new Uint8Array(await readFile(path));
  // PDF.js is large: loaded on the first PDF only.
  const { getDocumentProxy } = await import("unpdf");
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(data);
  } catch (error) {
    throw new ToolError(
      "unsupported_file",
      `${path} could not be opened as a PDF (${(error as Error).message}).`,
    );
  }
  try {
    const totalPages = pdf.numPages;
    if (pagesSpec === undefined && totalPages > PDF_PAGES_WITHOUT_RANGE) {
      throw new ToolError(
        "invalid_input",
        `${path} has ${totalPages} pages; more than ${PDF_PAGES_WITHOUT_RANGE} need a range. Pass pages, e.g. pages: "1-${MAX_PDF_PAGES_PER_CALL}" (at most ${MAX_PDF_PAGES_PER_CALL} pages per call).`,
      );
    }
    if (totalPages === 0) return { type: "pdf", file: { filePath: path, totalPages, pages: [] } };
    const wanted = parsePageRange(pagesSpec ?? `1-${totalPages}`, totalPages);
    const pages: Array<{ page: number; text: string }> = [];
    for (const number of wanted) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      const text = content.items
        .map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : ""))
        .join("")
        .trim();
      pages.push({ page: number, text });
    }
    return { type: "pdf", file: { filePath: path, totalPages, pages } };
  } finally {
    await pdf.destroy();
  }
}
