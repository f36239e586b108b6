// The LSP tool against the real TypeScript language server (TypeScript 7's native one, bundled), on a
// small project made in a temp folder. One server serves the whole file, as in a session.
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { sessionServers } from "../../lsp/sessionServers.ts";
import { positionOf, TYPESCRIPT_PROJECT, writeProject } from "../../lsp/testing/fixtures.ts";
import { decidePermission } from "../../permissions/engine.ts";
import { addRules } from "../../tool/context.ts";
import { EditTool } from "../edit/EditTool.ts";
import { MultiEditTool } from "../multi-edit/MultiEditTool.ts";
import { ReadTool } from "../read/ReadTool.ts";
import { runTool, runToolText, sharedFileToolSession, toolError } from "../shared/testSession.ts";
import { WriteTool } from "../write/WriteTool.ts";
import { LspTool } from "./LspTool.ts";

// A generous budget: the test is about which errors are reported, not how fast (the default is 2 s).
const s = sharedFileToolSession({ lsp: { diagnosticsBudgetMs: 30_000 } }, (session) =>
  writeProject(session.root, TYPESCRIPT_PROJECT),
);

const file = (name: string) => s.path("src", name);
const lsp = (input: Record<string, unknown>) => runToolText(LspTool, input, s.context);
function at(name: string, lineText: string, word: string) {
  return { filePath: file(name), ...positionOf(file(name), lineText, word) };
}

describe("LSP on TypeScript: the nine operations", () => {
  it("goToDefinition follows an import to the definition, with its line of source", async () => {
    const text = await lsp({ operation: "goToDefinition", ...at("main.ts", "const total", "totalArea") });
    expect(text).toBe(
      "Found 1 definition:\n1. src/shapes.ts:20:17  export function totalArea(shapes: Shape[]): number {",
    );
    expect(sessionServers(s.context.options.sessionId)).toHaveLength(1);
  });

  it("findReferences lists every use across files, numbered", async () => {
    const text = await lsp({
      operation: "findReferences",
      ...at("shapes.ts", "export function", "totalArea"),
    });
    expect(text).toContain("Found 5 references in 3 files:");
    expect(text).toContain("src/main.ts:4:17  const total = totalArea([new Square(2), new Circle(1)]);");
    expect(text).toContain("src/secret.ts:3:28  export const hiddenTotal = totalArea([]);");
    expect(text).toMatch(/^1\. /m);
  });

  it("hover gives the signature and the doc comment", async () => {
    const text = await lsp({ operation: "hover", ...at("main.ts", "const total", "totalArea") });
    expect(text).toContain("(on `totalArea`)");
    expect(text).toContain("function totalArea(shapes: Shape[]): number");
    expect(text).toContain("Adds up the areas of all shapes.");
  });

  it("documentSymbol outlines the file, members indented under their class", async () => {
    const text = await lsp({ operation: "documentSymbol", filePath: file("shapes.ts") });
    expect(text).toContain("in src/shapes.ts:");
    expect(text).toMatch(/\d+\. Shape \(interface\) 1:18/);
    expect(text).toMatch(/\d+\. Square \(class\) 5:14\n\d+\. {3}constructor \(constructor\)/);
    expect(text).toMatch(/\d+\. totalArea \(function\) 20:17/);
  });

  it("workspaceSymbol finds symbols by name across the project", async () => {
    const text = await lsp({ operation: "workspaceSymbol", filePath: file("main.ts"), query: "Circ" });
    expect(text).toContain('matching "Circ"');
    expect(text).toMatch(/Circle \(class\) src\/shapes\.ts:12:14 {2}export class Circle implements Shape \{/);
  });

  it("goToImplementation finds the classes implementing an interface", async () => {
    const text = await lsp({
      operation: "goToImplementation",
      ...at("shapes.ts", "export interface", "Shape"),
    });
    expect(text).toContain("Found 2 implementations:");
    expect(text).toContain("src/shapes.ts:5:14  export class Square implements Shape {");
    expect(text).toContain("src/shapes.ts:12:14  export class Circle implements Shape {");
  });

  it("prepareCallHierarchy names the function at the position", async () => {
    const text = await lsp({
      operation: "prepareCallHierarchy",
      ...at("main.ts", "export function", "report"),
    });
    expect(text).toBe(
      "Found 1 call hierarchy item:\n1. report (function) src/main.ts:3:17  export function report(): string {",
    );
  });

  it("incomingCalls lists the callers with the line of the call", async () => {
    const text = await lsp({
      operation: "incomingCalls",
      ...at("shapes.ts", "export function", "totalArea"),
    });
    expect(text).toContain("report (function) calls it at src/main.ts:4:17  const total = totalArea(");
    expect(text).toMatch(/calls it at src\/secret\.ts:3:28/);
  });

  it("outgoingCalls lists what the function calls and where", async () => {
    const text = await lsp({ operation: "outgoingCalls", ...at("main.ts", "export function", "report") });
    expect(text).toMatch(/totalArea \(function\) src\/shapes\.ts:20:17 .*\[called at 4:17\]/);
    expect(text).toMatch(/Square \(class\) src\/shapes\.ts:5:14/);
  });

  it("a long result lists the first 50 entries and says how many more there are", async () => {
    const path = file("units.ts");
    const uses = Array.from({ length: 60 }, (_, index) => `export const u${index} = unit;`);
    writeFileSync(path, `export const unit = 1;\n${uses.join("\n")}\n`);
    const text = await lsp({ operation: "findReferences", filePath: path, line: 1, character: 14 });
    expect(text.split("\n")[0]).toBe("Found 61 references:");
    expect(text).toContain("50. src/units.ts:50:");
    expect(text).not.toContain("51. ");
    expect(text).toMatch(/\n\(11 more not shown, 61 in all\. [^\n]+\)$/);
  });

  it("a position off any symbol finds nothing and says so, with the line", async () => {
    const text = await lsp({ operation: "goToDefinition", filePath: file("main.ts"), line: 4, character: 2 });
    expect(text).toBe(
      "No definition found in src/main.ts at 4:2, which is not on an identifier (line: `const total = totalArea([new Square(2), new Circle(1)]);`). Give the character of the symbol's first letter.",
    );
  });

  it("bad input gets an error the model can act on", async () => {
    expect((await toolError(lsp({ operation: "hover", filePath: file("main.ts") }))).message).toMatch(
      /hover needs line and character/,
    );
    expect(
      (await toolError(lsp({ operation: "workspaceSymbol", filePath: file("main.ts") }))).message,
    ).toMatch(/needs a query/);
    expect(
      (await toolError(lsp({ operation: "hover", filePath: file("main.ts"), line: 99, character: 1 })))
        .message,
    ).toMatch(/line 99 is past the end/);
    expect((await toolError(lsp({ operation: "documentSymbol", filePath: file("gone.ts") }))).code).toBe(
      "file_not_found",
    );
  });
});

describe("LSP on TypeScript: paths are governed like Read", () => {
  it("reading inside the working directories is allowed; outside asks; a Read allow rule covers it", async () => {
    const inside = { operation: "documentSymbol" as const, filePath: file("main.ts") };
    expect((await decidePermission(LspTool, inside, s.context)).behavior).toBe("allow");
    const outside = { operation: "documentSymbol" as const, filePath: `${s.base}/elsewhere/a.ts` };
    const asked = await decidePermission(LspTool, outside, s.context);
    expect(asked.behavior).toBe("ask");
    if (asked.behavior === "ask")
      expect(asked.decisionReason).toMatchObject({ type: "tool", check: "outside-working-dirs" });
    const policy = addRules(s.context.getAppState().toolPermissionContext, "allow", "session", [
      `Read(/${s.base}/elsewhere/**)`,
    ]);
    expect((await decidePermission(LspTool, outside, s.context, policy)).behavior).toBe("allow");
  });

  it("a Read deny rule refuses the file, and leaves the denied file out of other results", async () => {
    const context = { ...s.context };
    const policy = addRules(s.context.getAppState().toolPermissionContext, "deny", "project", [
      "Read(src/secret.ts)",
    ]);
    let state = { ...s.context.getAppState(), toolPermissionContext: policy };
    context.getAppState = () => state;
    context.setAppState = (update) => {
      state = update(state);
    };
    const refused = await toolError(
      runToolText(LspTool, { operation: "documentSymbol", filePath: file("secret.ts") }, context),
    );
    expect(refused.code).toBe("permission_denied");
    const text = await runToolText(
      LspTool,
      { operation: "findReferences", ...at("shapes.ts", "export function", "totalArea") },
      context,
    );
    expect(text).not.toContain("secret.ts");
    expect(text).toContain("Found 3 references in 2 files:");
    expect(text).toContain("(2 results in files that Read rules deny are not shown.)");
    const hoverDenied = await runToolText(
      LspTool,
      { operation: "hover", ...at("main.ts", "const total", "totalArea") },
      {
        ...context,
        getAppState: () => ({
          ...state,
          toolPermissionContext: addRules(policy, "deny", "project", ["Read(src/shapes.ts)"]),
        }),
      },
    );
    expect(hoverDenied).toMatch(
      /^No hover shown: the symbol at 4:17 \(on `totalArea`\) is defined in a file that Read rules deny/,
    );
    expect(hoverDenied).not.toContain("Adds up");
    const hoverAllowed = await runToolText(
      LspTool,
      { operation: "hover", ...at("main.ts", "const total", "totalArea") },
      context,
    );
    expect(hoverAllowed).toContain("Adds up the areas of all shapes.");
  });
});

describe("LSP on TypeScript: errors an edit introduced", () => {
  it("Edit reports only the new error, not one the file already had", async () => {
    const path = file("broken.ts");
    await runTool(ReadTool, { file_path: path }, s.context);
    const text = await runToolText(
      EditTool,
      {
        file_path: path,
        old_string: 'count: number = "one";',
        new_string: 'count: number = "one";\nexport const label: string = 42;',
      },
      s.context,
    );
    expect(text).toContain("<new-diagnostics>");
    expect(text).toContain("This edit introduced 1 error in src/broken.ts (typescript language server):");
    expect(text).toMatch(
      /1\. 2:14 Type 'number' is not assignable to type 'string'\. \[.*2322\] {2}`export const label: string = 42;`/,
    );
    expect(text).not.toContain("'string' is not assignable to type 'number'");
  });

  it("an edit that fixes an error or adds none reports nothing", async () => {
    const path = file("broken.ts");
    const text = await runToolText(
      EditTool,
      { file_path: path, old_string: "label: string = 42", new_string: 'label: string = "42"' },
      s.context,
    );
    expect(text).not.toContain("<new-diagnostics>");
  });

  it("Write of a new file reports its errors; MultiEdit reports what its edits introduced", async () => {
    const path = file("fresh.ts");
    const written = await runToolText(
      WriteTool,
      {
        file_path: path,
        content: 'import { totalArea } from "./shapes.js";\nexport const bad: string = totalArea([]);\n',
      },
      s.context,
    );
    expect(written).toMatch(
      /introduced 1 error in src\/fresh\.ts[\s\S]*Type 'number' is not assignable to type 'string'/,
    );
    const edited = await runToolText(
      MultiEditTool,
      {
        file_path: path,
        edits: [
          { old_string: "bad: string", new_string: "bad: number" },
          { old_string: "totalArea([])", new_string: "totalArea([1])" },
        ],
      },
      s.context,
    );
    expect(edited).toMatch(
      /introduced 1 error in src\/fresh\.ts[\s\S]*'number' is not assignable to type 'Shape'/,
    );
    expect(readFileSync(path, "utf8")).toContain("totalArea([1])");
  });

  it("many new errors: the first 10 are listed, the rest counted", async () => {
    const path = file("many.ts");
    const lines = Array.from({ length: 12 }, (_, index) => `export const v${index}: string = ${index};`);
    const text = await runToolText(
      WriteTool,
      { file_path: path, content: `${lines.join("\n")}\n` },
      s.context,
    );
    expect(text).toContain("This edit introduced 12 errors in src/many.ts");
    expect(text).toContain("10. 10:14 Type 'number' is not assignable to type 'string'.");
    expect(text).not.toContain("11. ");
    expect(text).toContain("(2 more not shown)\n</new-diagnostics>");
  });
});
