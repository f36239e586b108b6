// One cell edit applied to a notebook's JSON text, keeping its layout (indent, key order, final newline).
import { ToolError } from "../../tool/errors.ts";
import {
  cellId,
  detectNotebookLayout,
  findCellIndex,
  type Notebook,
  type NotebookCell,
  newCellId,
  notebookNeedsCellIds,
  parseNotebook,
  serializeNotebook,
  sourceLines,
} from "../shared/notebook.ts";

export interface CellEdit {
  mode: "replace" | "insert" | "delete";
  cellId: string | undefined;
  source: string;
  cellType: "code" | "markdown" | undefined;
}

export interface CellEditResult {
  text: string;
  /** The edited, inserted or deleted cell's id. */
  cellId: string;
  cellType?: string;
}

function cellNotFound(notebook: Notebook, id: string, path: string): ToolError {
  const ids = notebook.cells.slice(0, 30).map((cell, index) => cellId(cell, index));
  return new ToolError(
    "not_found",
    `No cell with id "${id}" in ${path}. Its cells are: ${ids.join(", ")}${notebook.cells.length > 30 ? ", ..." : ""}. Read the notebook to see them.`,
  );
}

/** The source in the form the cell already uses: a list of lines (nbformat's usual) or one string. */
function fittedSource(previous: NotebookCell["source"] | undefined, text: string): NotebookCell["source"] {
  return typeof previous === "string" ? text : sourceLines(text);
}

/** Code cells carry outputs and an execution count; markdown cells carry neither. */
function setCellType(cell: NotebookCell, type: string): void {
  cell.cell_type = type;
  if (type === "code") {
    cell.execution_count = null;
    cell.outputs = [];
  } else {
    delete cell.execution_count;
    delete cell.outputs;
  }
}

/** A new cell with keys in nbformat's (sorted) order. */
function newCell(notebook: Notebook, type: "code" | "markdown", source: string): NotebookCell {
  const id = notebookNeedsCellIds(notebook) ? { id: newCellId(notebook) } : {};
  return type === "code"
    ? {
        cell_type: "code",
        execution_count: null,
        ...id,
        metadata: {},
        outputs: [],
        source: sourceLines(source),
      }
    : { cell_type: "markdown", ...id, metadata: {}, source: sourceLines(source) };
}

export function applyCellEdit(text: string, edit: CellEdit, path: string): CellEditResult {
  const notebook = parseNotebook(text, path);
  const layout = detectNotebookLayout(text);
  const index = edit.cellId === undefined ? -1 : findCellIndex(notebook, edit.cellId);
  if (edit.cellId !== undefined && index === -1) throw cellNotFound(notebook, edit.cellId, path);

  if (edit.mode === "delete") {
    const [removed] = notebook.cells.splice(index, 1);
    return { text: serializeNotebook(notebook, layout), cellId: cellId(removed as NotebookCell, index) };
  }
  if (edit.mode === "insert") {
    const type = edit.cellType ?? "code";
    const cell = newCell(notebook, type, edit.source);
    const at = index + 1;
    notebook.cells.splice(at, 0, cell);
    return { text: serializeNotebook(notebook, layout), cellId: cellId(cell, at), cellType: type };
  }
  const cell = notebook.cells[index] as NotebookCell;
  if (edit.cellType !== undefined && edit.cellType !== cell.cell_type) setCellType(cell, edit.cellType);
  cell.source = fittedSource(cell.source, edit.source);
  if (cell.cell_type === "code") {
    // The old outputs came from the old source: stale now.
    cell.execution_count = null;
    cell.outputs = [];
  }
  return { text: serializeNotebook(notebook, layout), cellId: cellId(cell, index), cellType: cell.cell_type };
}
