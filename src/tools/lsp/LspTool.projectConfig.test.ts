// TypeScript files no tsconfig.json or jsconfig.json covers: the real TypeScript server then knows only
// the files opened so far, and answers spanning files say they may be incomplete.
import { writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { stopLanguageServers } from "../../lsp/sessionServers.ts";
import { createFileToolSession, type FileToolSession, runToolText } from "../shared/testSession.ts";
import { LspTool } from "./LspTool.ts";

const sessions: FileToolSession[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) {
    await stopLanguageServers(s.context.options.sessionId);
    s.cleanup();
  }
});

function project(withConfig: boolean): FileToolSession {
  const s = createFileToolSession();
  sessions.push(s);
  writeFileSync(s.path("a.ts"), "export function add(a: number, b: number) {\n  return a + b;\n}\n");
  writeFileSync(s.path("b.ts"), 'import { add } from "./a";\nexport const three = add(1, 2);\n');
  if (withConfig)
    writeFileSync(s.path("tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true } }));
  return s;
}

const NOTE = "(No tsconfig.json or jsconfig.json covers this file";

describe("LSP on TypeScript files without a project config", () => {
  it("findReferences says results in other files may be missing; hover, a single-file answer, does not", async () => {
    const s = project(false);
    const references = await runToolText(
      LspTool,
      { operation: "findReferences", filePath: s.path("a.ts"), line: 1, character: 17 },
      s.context,
    );
    expect(references).toContain("a.ts:1:17  export function add(a: number, b: number) {");
    expect(references).not.toContain("b.ts:");
    expect(references).toContain(NOTE);
    const hover = await runToolText(
      LspTool,
      { operation: "hover", filePath: s.path("a.ts"), line: 1, character: 17 },
      s.context,
    );
    expect(hover).toContain("function add(a: number, b: number): number");
    expect(hover).not.toContain(NOTE);
  });

  it("with a tsconfig.json, findReferences finds the uses in other files and adds no note", async () => {
    const s = project(true);
    const references = await runToolText(
      LspTool,
      { operation: "findReferences", filePath: s.path("a.ts"), line: 1, character: 17 },
      s.context,
    );
    expect(references).toContain("Found 3 references in 2 files:");
    expect(references).toContain("b.ts:2:22  export const three = add(1, 2);");
    expect(references).not.toContain(NOTE);
  });
});
