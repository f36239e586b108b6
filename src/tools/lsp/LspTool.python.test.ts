// The LSP tool against the real Python language server (pyright, bundled), on a small project made in
// a temp folder. One server serves the whole file, as in a session.
import { describe, expect, it } from "vitest";
import { LSP_ERROR } from "../../lsp/launch.ts";
import { PYTHON_PROJECT, positionOf, writeProject } from "../../lsp/testing/fixtures.ts";
import { EditTool } from "../edit/EditTool.ts";
import { ReadTool } from "../read/ReadTool.ts";
import { runTool, runToolText, sharedFileToolSession, toolError } from "../shared/testSession.ts";
import { LspTool } from "./LspTool.ts";

// A generous budget: the test is about which errors are reported, not how fast (the default is 2 s).
const s = sharedFileToolSession({ lsp: { diagnosticsBudgetMs: 30_000 } }, (session) =>
  writeProject(session.root, PYTHON_PROJECT),
);

const file = (name: string) => s.path("app", name);
const lsp = (input: Record<string, unknown>) => runToolText(LspTool, input, s.context);
function at(name: string, lineText: string, word: string) {
  return { filePath: file(name), ...positionOf(file(name), lineText, word) };
}

describe("LSP on Python (pyright): the nine operations", () => {
  it("goToDefinition follows an import to the definition", async () => {
    const text = await lsp({ operation: "goToDefinition", ...at("main.py", "total =", "total_area") });
    expect(text).toBe(
      "Found 1 definition:\n1. app/shapes.py:14:5  def total_area(shapes: list[Shape]) -> float:",
    );
  });

  it("findReferences lists the uses across files", async () => {
    const text = await lsp({
      operation: "findReferences",
      ...at("shapes.py", "def total_area", "total_area"),
    });
    expect(text).toContain("Found 3 references in 2 files:");
    expect(text).toContain("app/main.py:5:13  total = total_area([Square(2)])");
    expect(text).toContain("app/main.py:1:32  from app.shapes import Square, total_area");
  });

  it("hover gives the signature and the docstring", async () => {
    const text = await lsp({ operation: "hover", ...at("main.py", "total =", "total_area") });
    expect(text).toContain("def total_area(shapes: list[Shape]) -> float");
    expect(text).toContain("Adds up the areas of all shapes.");
  });

  it("documentSymbol outlines the module, methods under their class", async () => {
    const text = await lsp({ operation: "documentSymbol", filePath: file("shapes.py") });
    expect(text).toMatch(/\d+\. Square \(class\) 6:7\n\d+\. {3}__init__ \(method\) 7:9/);
    expect(text).toMatch(/\d+\. total_area \(function\) 14:5/);
  });

  it("workspaceSymbol finds a symbol by name", async () => {
    const text = await lsp({ operation: "workspaceSymbol", filePath: file("main.py"), query: "total_area" });
    expect(text).toMatch(/total_area \(function\) app\/shapes\.py:14:5 {2}def total_area/);
  });

  it("goToImplementation: pyright does not offer it, and the error says so", async () => {
    const error = await toolError(
      lsp({ operation: "goToImplementation", ...at("shapes.py", "class Shape", "Shape") }),
    );
    expect(error.code).toBe(LSP_ERROR.requestFailed);
    expect(error.message).toMatch(
      /python language server \(pyright .*\) does not support goToImplementation/,
    );
  });

  it("prepareCallHierarchy, incomingCalls and outgoingCalls walk the call graph", async () => {
    const item = await lsp({
      operation: "prepareCallHierarchy",
      ...at("shapes.py", "def total_area", "total_area"),
    });
    expect(item).toContain("1. total_area (function) app/shapes.py:14:5");
    const callers = await lsp({
      operation: "incomingCalls",
      ...at("shapes.py", "def total_area", "total_area"),
    });
    expect(callers).toContain(
      "report (function) calls it at app/main.py:5:13  total = total_area([Square(2)])",
    );
    const callees = await lsp({ operation: "outgoingCalls", ...at("main.py", "def report", "report") });
    expect(callees).toMatch(/total_area \(function\) app\/shapes\.py:14:5 .*\[called at 5:13\]/);
  });
});

describe("LSP on Python (pyright): errors an edit introduced", () => {
  it("Edit reports only the new error, not one the file already had", async () => {
    const path = file("broken.py");
    await runTool(ReadTool, { file_path: path }, s.context);
    await lsp({ operation: "documentSymbol", filePath: path });
    const text = await runToolText(
      EditTool,
      {
        file_path: path,
        old_string: 'count: int = "one"',
        new_string: 'count: int = "one"\nlabel: str = 42',
      },
      s.context,
    );
    expect(text).toContain("This edit introduced 1 error in app/broken.py (python language server):");
    expect(text).toMatch(/1\. 2:14 .*"Literal\[42\]" is not assignable to declared type "str"/);
    expect(text).not.toContain("\"Literal['one']\"");
  });
});
