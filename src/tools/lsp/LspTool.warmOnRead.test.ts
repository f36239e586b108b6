// The first edit of a file reports the errors it introduced, with no LSP call before it: in a session
// that starts servers on use (the agent, keel mcp), reading a file starts its language server, and the
// edit that follows waits for it (within its budget). Real TypeScript 7 native server.
import { writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { LspOptions } from "../../lsp/servers.ts";
import { sessionServers, startingServerForFile, stopLanguageServers } from "../../lsp/sessionServers.ts";
import { TYPESCRIPT_PROJECT, writeProject } from "../../lsp/testing/fixtures.ts";
import { EditTool } from "../edit/EditTool.ts";
import { ReadTool } from "../read/ReadTool.ts";
import { createFileToolSession, type FileToolSession, runTool, runToolText } from "../shared/testSession.ts";

const sessions: FileToolSession[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) {
    await stopLanguageServers(s.context.options.sessionId);
    s.cleanup();
  }
});

function project(lsp: LspOptions): FileToolSession {
  // A generous budget: the test is about what is reported, not how fast (the default is 2 s).
  const s = createFileToolSession({ lsp: { diagnosticsBudgetMs: 60_000, ...lsp } });
  sessions.push(s);
  writeProject(s.root, TYPESCRIPT_PROJECT);
  return s;
}

const addError = {
  old_string: 'count: number = "one";',
  new_string: 'count: number = "one";\nexport const label: string = 42;',
};

describe("LSP diagnostics on a session's first edit", () => {
  it("startOnFileUse: Read starts the file's server, and the Edit after it reports the error it introduced", async () => {
    const s = project({ startOnFileUse: true });
    const path = s.path("src", "broken.ts");
    const id = s.context.options.sessionId;
    expect(sessionServers(id)).toEqual([]);
    await runTool(ReadTool, { file_path: path }, s.context);
    expect(startingServerForFile(s.context, path)).toBeDefined();
    const text = await runToolText(EditTool, { file_path: path, ...addError }, s.context);
    expect(text).toContain("This edit introduced 1 error in src/broken.ts (typescript language server):");
    expect(text).toContain("2:14 Type 'number' is not assignable to type 'string'.");
    expect(text).not.toContain("'string' is not assignable to type 'number'");
  });

  it("startOnFileUse: reading a file outside the working directories, or one no server serves, starts nothing", async () => {
    const s = project({ startOnFileUse: true });
    const outside = `${s.base}/outside.ts`;
    writeFileSync(outside, "export const x = 1;\n");
    await runTool(ReadTool, { file_path: outside }, s.context);
    await runTool(ReadTool, { file_path: s.path("tsconfig.json") }, s.context);
    expect(startingServerForFile(s.context, outside)).toBeUndefined();
    expect(sessionServers(s.context.options.sessionId)).toEqual([]);
  });

  it("without startOnFileUse (keel tool, the library's default): Read starts nothing and the Edit reports nothing", async () => {
    const s = project({});
    const path = s.path("src", "broken.ts");
    await runTool(ReadTool, { file_path: path }, s.context);
    expect(startingServerForFile(s.context, path)).toBeUndefined();
    const text = await runToolText(EditTool, { file_path: path, ...addError }, s.context);
    expect(text).not.toContain("<new-diagnostics>");
    expect(sessionServers(s.context.options.sessionId)).toEqual([]);
  });
});
