import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ReadTool } from "../read/ReadTool.ts";
import type { Notebook } from "../shared/notebook.ts";
import { runTool, sharedFileToolSession, toolError } from "../shared/testSession.ts";
import { NotebookEditTool } from "./NotebookEditTool.ts";

const s = sharedFileToolSession();

function notebook(minor = 5): Notebook {
  return {
    cells: [
      { cell_type: "markdown", id: "md1", metadata: {}, source: ["# Title\n", "intro"] },
      {
        cell_type: "code",
        execution_count: 7,
        id: "code1",
        metadata: { tags: ["keep"] },
        outputs: [{ output_type: "stream", name: "stdout", text: ["old output\n"] }],
        source: ["x = 1\n", "print(x)"],
      },
    ],
    metadata: { kernelspec: { name: "python3" } },
    nbformat: 4,
    nbformat_minor: minor,
  };
}

let counter = 0;
async function readNotebook(value: Notebook, indent = 1): Promise<string> {
  const path = s.path(`nb${++counter}.ipynb`);
  writeFileSync(path, `${JSON.stringify(value, null, indent)}\n`);
  await runTool(ReadTool, { file_path: path }, s.context);
  return path;
}
const load = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Notebook;
const edit = (input: Record<string, unknown>) => runTool(NotebookEditTool, input, s.context);

describe("NotebookEdit", () => {
  it("replacing a code cell sets its source and drops stale outputs and execution count", async () => {
    const path = await readNotebook(notebook());
    await edit({ notebook_path: path, cell_id: "code1", new_source: "y = 2\nprint(y)" });
    const cell = load(path).cells[1];
    expect(cell).toEqual({
      cell_type: "code",
      execution_count: null,
      id: "code1",
      metadata: { tags: ["keep"] },
      outputs: [],
      source: ["y = 2\n", "print(y)"],
    });
  });

  it("keeps the JSON layout: indent, key order, final newline; only the edited cell changes", async () => {
    const path = await readNotebook(notebook(), 2);
    await edit({ notebook_path: path, cell_id: "md1", new_source: "# New title" });
    const expected = notebook();
    (expected.cells[0] as { source: unknown }).source = ["# New title"];
    expect(readFileSync(path, "utf8")).toBe(`${JSON.stringify(expected, null, 2)}\n`);
  });

  it("inserts after a cell (or at the start), with a fresh id in nbformat 4.5", async () => {
    const path = await readNotebook(notebook());
    const { data } = await edit({
      notebook_path: path,
      cell_id: "md1",
      new_source: "z = 3",
      cell_type: "code",
      edit_mode: "insert",
    });
    await edit({ notebook_path: path, new_source: "first", cell_type: "markdown", edit_mode: "insert" });
    const cells = load(path).cells;
    expect(cells.map((cell) => cell.cell_type)).toEqual(["markdown", "markdown", "code", "code"]);
    expect(cells[2]).toMatchObject({
      id: data.cellId,
      source: ["z = 3"],
      outputs: [],
      execution_count: null,
    });
    expect(data.cellId).toMatch(/^[0-9a-f]{8}$/);
    expect(cells[0]?.source).toEqual(["first"]);
    expect(cells[0]).not.toHaveProperty("outputs");
  });

  it("deletes a cell", async () => {
    const path = await readNotebook(notebook());
    await edit({ notebook_path: path, cell_id: "md1", new_source: "", edit_mode: "delete" });
    expect(load(path).cells.map((cell) => cell.id)).toEqual(["code1"]);
  });

  it("changes a cell's type", async () => {
    const path = await readNotebook(notebook());
    await edit({ notebook_path: path, cell_id: "code1", new_source: "Now *text*", cell_type: "markdown" });
    const cell = load(path).cells[1];
    expect(cell).toEqual({
      cell_type: "markdown",
      id: "code1",
      metadata: { tags: ["keep"] },
      source: ["Now *text*"],
    });
  });

  it("addresses cells without ids as cell-N in older notebooks, and inserts without ids there", async () => {
    const old = notebook(4);
    for (const cell of old.cells) delete cell.id;
    const path = await readNotebook(old);
    await edit({ notebook_path: path, cell_id: "cell-1", new_source: "changed" });
    await edit({
      notebook_path: path,
      cell_id: "cell-0",
      new_source: "new",
      cell_type: "code",
      edit_mode: "insert",
    });
    const cells = load(path).cells;
    expect(cells[2]?.source).toEqual(["changed"]);
    expect(cells[1]).not.toHaveProperty("id");
  });

  it.each([
    [{ cell_id: "nope", new_source: "x" }, "not_found", /Its cells are: md1, code1/],
    [{ new_source: "x", edit_mode: "insert" }, "invalid_input", /cell_type is required/],
    [{ new_source: "x" }, "invalid_input", /cell_id is required/],
  ])("errors: %j -> %s", async (input, code, message) => {
    const path = await readNotebook(notebook());
    const error = await toolError(edit({ notebook_path: path, ...input }));
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  });

  it("needs a read first, and refuses files that are not notebooks", async () => {
    const path = s.path("unread.ipynb");
    writeFileSync(path, JSON.stringify(notebook()));
    expect((await toolError(edit({ notebook_path: path, cell_id: "md1", new_source: "x" }))).code).toBe(
      "not_read",
    );
    writeFileSync(s.path("plain.txt"), "x");
    expect(
      (await toolError(edit({ notebook_path: s.path("plain.txt"), cell_id: "a", new_source: "x" }))).code,
    ).toBe("wrong_tool");
  });
});
