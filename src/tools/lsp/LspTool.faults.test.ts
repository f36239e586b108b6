// Servers that crash, hang, flood or are missing: a real process (src/lsp/testing/fakeServer.mjs)
// misbehaving as asked. Each call ends with a clear error, the server is restarted once, and the
// session goes on.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LSP_ERROR } from "../../lsp/launch.ts";
import type { LspOptions, LspServerSettings } from "../../lsp/servers.ts";
import { sessionServers, stopLanguageServers } from "../../lsp/sessionServers.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { createToolUseContext } from "../../tool/createContext.ts";
import {
  createFileToolSession,
  type FileToolSession,
  runToolText,
  toolError,
} from "../shared/testSession.ts";
import { LspTool } from "./LspTool.ts";

const FAKE_SERVER = fileURLToPath(new URL("../../lsp/testing/fakeServer.mjs", import.meta.url));

let s: FileToolSession;
let contexts: ToolUseContext[] = [];
let file: string;

beforeAll(() => {
  s = createFileToolSession();
  file = s.path("main.fake");
  writeFileSync(file, "one\ntwo\n");
});
afterEach(async () => {
  await Promise.all(contexts.map((context) => stopLanguageServers(context.options.sessionId)));
  contexts = [];
});
afterAll(() => s.cleanup());

function fakeSession(mode: string, extra: Partial<LspServerSettings> = {}): ToolUseContext {
  const config: LspServerSettings = {
    command: process.execPath,
    args: [FAKE_SERVER, "--mode", mode, "--marker", s.path(`${mode}.marker`)],
    extensionToLanguage: { ".fake": "fake" },
    requestTimeout: 1_500,
    ...extra,
  };
  const lsp: LspOptions = { servers: [{ name: "fake", config, file: "test settings" }] };
  const context = createToolUseContext({ tools: [LspTool], cwd: s.root, lsp });
  contexts.push(context);
  return context;
}

const hover = (context: ToolUseContext) =>
  runToolText(LspTool, { operation: "hover", filePath: file, line: 1, character: 1 }, context);

function isAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits for a condition, checking every 20 ms; fails after 10 s. */
async function waitFor(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 10_000) throw new Error("condition not met within 10 s");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("LSP: misbehaving servers", () => {
  it("a well-behaved configured server answers", async () => {
    const context = fakeSession("ok");
    expect(await hover(context)).toMatch(/fake hover \(pid \d+\) at 0/);
  });

  it("a crash fails the call with the server's last words; the next call runs on a restarted server", async () => {
    const context = fakeSession("crash-once");
    const crashed = await toolError(hover(context));
    expect(crashed.code).toBe(LSP_ERROR.crashed);
    expect(crashed.message).toContain("exited with code 3");
    expect(crashed.message).toContain("fake server: crashing as asked");
    expect(await hover(context)).toMatch(/fake hover/);
  });

  it("a server that keeps crashing is restarted once, then stays off with a clear error", async () => {
    const context = fakeSession("crash");
    expect((await toolError(hover(context))).code).toBe(LSP_ERROR.crashed);
    expect((await toolError(hover(context))).code).toBe(LSP_ERROR.crashed);
    const gaveUp = await toolError(hover(context));
    expect(gaveUp.code).toBe(LSP_ERROR.gaveUp);
    expect(gaveUp.message).toMatch(/failed twice in this session.*Use Grep and Read instead/s);
  });

  it("a hang times out with a clear error, and the hung process is killed", async () => {
    const context = fakeSession("hang");
    const pending = hover(context);
    await waitFor(() => sessionServers(context.options.sessionId).length > 0);
    const [server] = sessionServers(context.options.sessionId);
    expect(isAlive(server?.pid)).toBe(true);
    const error = await toolError(pending);
    await waitFor(() => !isAlive(server?.pid));
    expect(error.code).toBe(LSP_ERROR.timeout);
    expect(error.message).toMatch(
      /did not answer textDocument\/hover \(no answer in 1\.5 s\).*restarted on the next call/,
    );
    expect(sessionServers(context.options.sessionId)).toEqual([]);
  });

  it("a flood stops the server with a clear error", async () => {
    const context = fakeSession("flood", { requestTimeout: 60_000 });
    const error = await toolError(hover(context));
    expect(error.code).toBe(LSP_ERROR.flood);
    expect(error.message).toMatch(/flooded its output/);
  });

  it("a missing command says so and how to fix it", async () => {
    const context = fakeSession("ok", { command: "keel-no-such-language-server" });
    const error = await toolError(hover(context));
    expect(error.code).toBe(LSP_ERROR.missing);
    expect(error.message).toContain("command not found: keel-no-such-language-server");
    expect(error.message).toContain("Install keel-no-such-language-server and make sure it is on PATH");
  });

  it("a socket transport is refused with the fix", async () => {
    const context = fakeSession("ok", { transport: "socket" });
    expect((await toolError(hover(context))).message).toMatch(/Keel talks to language servers over stdio/);
  });

  it("a file type without a server gets a clear error naming a known server and the settings to add", async () => {
    const context = fakeSession("ok");
    const go = s.path("main.go");
    writeFileSync(go, "package main\n");
    const error = await toolError(
      runToolText(LspTool, { operation: "documentSymbol", filePath: go }, context),
    );
    expect(error.code).toBe(LSP_ERROR.notConfigured);
    expect(error.message).toContain("gopls");
    expect(error.message).toContain("lspServers");
  });

  it("stopping the session ends its servers", async () => {
    const context = fakeSession("ok");
    await hover(context);
    const [server] = sessionServers(context.options.sessionId);
    expect(isAlive(server?.pid)).toBe(true);
    await stopLanguageServers(context.options.sessionId);
    await waitFor(() => !isAlive(server?.pid));
    expect(sessionServers(context.options.sessionId)).toEqual([]);
  });
});
