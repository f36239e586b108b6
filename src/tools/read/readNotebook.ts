// Notebooks come back as cells: ids, types, sources, text outputs, and image outputs as image blocks.
import type { Stats } from "node:fs";
import { readFile } from "node:fs/promises";
import type { FileReadRecord } from "../../tool/context.ts";
import { IMAGE_MEDIA_TYPES } from "../../tool/messages.ts";
import { decodeText } from "../shared/encoding.ts";
import { cellId, outputText, parseNotebook, sourceText } from "../shared/notebook.ts";
import { sha256 } from "../shared/readState.ts";
import type { NotebookCellView, ReadOutput } from "./output.ts";

export async function readNotebook(
  path: string,
  stats: Stats,
): Promise<{ output: ReadOutput; record: FileReadRecord }> {
  const bytes = await readFile(path);
  const { text } = decodeText(bytes);
  const notebook = parseNotebook(text, path);
  const cells: NotebookCellView[] = notebook.cells.map((cell, index) => {
    const outputs = cell.outputs ?? [];
    const images: NotebookCellView["images"] = [];
    for (const output of outputs) {
      for (const mediaType of IMAGE_MEDIA_TYPES) {
        const data = output.data?.[mediaType];
        const base64 = Array.isArray(data) ? data.join("") : data;
        if (typeof base64 === "string") images.push({ mediaType, base64: base64.replace(/\s+/g, "") });
      }
    }
    return {
      id: cellId(cell, index),
      cellType: cell.cell_type,
      source: sourceText(cell.source),
      ...(cell.cell_type === "code" ? { executionCount: cell.execution_count ?? null } : {}),
      outputs: outputs.map(outputText).filter((out) => out !== ""),
      images,
    };
  });
  const record: FileReadRecord = {
    content: text,
    hash: sha256(bytes),
    mtimeMs: stats.mtimeMs,
    isPartialView: false,
    offset: 1,
    limit: 0,
  };
  return { output: { type: "notebook", file: { filePath: path, cells } }, record };
}
