// Real language servers that crash or hang: the bundled TypeScript 7 native server and pyright, killed
// (SIGKILL) or frozen (SIGSTOP) under a session. The call gets a clear error, the server is restarted
// once, the session goes on; a second failure leaves it off with a clear error.
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { LSP_ERROR } from "../../lsp/launch.ts";
import type { LspOptions } from "../../lsp/servers.ts";
import { sessionServers, stopLanguageServers } from "../../lsp/sessionServers.ts";
import { PYTHON_PROJECT, positionOf, TYPESCRIPT_PROJECT, writeProject } from "../../lsp/testing/fixtures.ts";
import { bundledTypeScript, nativeExecutable } from "../../lsp/typescriptLaunch.ts";
import {
  createFileToolSession,
  type FileToolSession,
  runToolText,
  toolError,
} from "../shared/testSession.ts";
import { LspTool } from "./LspTool.ts";

const sessions: FileToolSession[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) {
    await stopLanguageServers(s.context.options.sessionId);
    s.cleanup();
  }
});

function project(files: Record<string, string>, lsp: LspOptions = {}): FileToolSession {
  const s = createFileToolSession({ lsp });
  sessions.push(s);
  writeProject(s.root, files);
  return s;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits for a condition, checking every 20 ms; fails after 20 s. */
async function waitFor(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 20_000) throw new Error(`${what}: not within 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function runningPid(s: FileToolSession): number {
  const servers = sessionServers(s.context.options.sessionId);
  expect(servers).toHaveLength(1);
  const pid = servers[0]?.pid;
  if (pid === undefined) throw new Error("the server has no pid");
  return pid;
}

/** Kills the server's process group as a crash would, and waits until the session has noticed. */
async function crash(s: FileToolSession): Promise<number> {
  const pid = runningPid(s);
  process.kill(-pid, "SIGKILL");
  await waitFor(() => !isAlive(pid), "the server to die");
  await waitFor(() => sessionServers(s.context.options.sessionId).length === 0, "the session to notice");
  return pid;
}

describe("LSP: the real TypeScript server crashes", () => {
  it("a killed server is restarted on the next call, which answers; a second crash leaves it off with a clear error", async () => {
    const s = project(TYPESCRIPT_PROJECT);
    const main = s.path("src", "main.ts");
    const definition = {
      operation: "goToDefinition",
      filePath: main,
      ...positionOf(main, "const total", "totalArea"),
    };
    const answer =
      "Found 1 definition:\n1. src/shapes.ts:20:17  export function totalArea(shapes: Shape[]): number {";
    expect(await runToolText(LspTool, definition, s.context)).toBe(answer);
    const first = await crash(s);
    expect(await runToolText(LspTool, definition, s.context)).toBe(answer);
    expect(runningPid(s)).not.toBe(first);
    await crash(s);
    const error = await toolError(runToolText(LspTool, definition, s.context));
    expect(error.code).toBe(LSP_ERROR.gaveUp);
    expect(error.message).toMatch(
      /typescript language server failed twice in this session.*was killed by SIGKILL.*Use Grep and Read instead/s,
    );
  });
});

describe("LSP: the real pyright server crashes", () => {
  it("a killed server is restarted on the next call, which answers", async () => {
    const s = project(PYTHON_PROJECT);
    const main = s.path("app", "main.py");
    const definition = {
      operation: "goToDefinition",
      filePath: main,
      ...positionOf(main, "total =", "total_area"),
    };
    const answer =
      "Found 1 definition:\n1. app/shapes.py:14:5  def total_area(shapes: list[Shape]) -> float:";
    expect(await runToolText(LspTool, definition, s.context)).toBe(answer);
    // pyright's temporary folder, which a killed pyright cannot remove: Keel does once it has exited.
    const folders = (pid: number) =>
      readdirSync(tmpdir()).filter((name) => name.startsWith(`pyright-${pid}-`));
    expect(folders(runningPid(s))).toHaveLength(1);
    const first = await crash(s);
    expect(folders(first)).toEqual([]);
    expect(await runToolText(LspTool, definition, s.context)).toBe(answer);
    expect(runningPid(s)).not.toBe(first);
  });
});

describe("LSP: the real TypeScript server hangs", () => {
  it("a frozen server: the call times out with a clear error, the process is killed, the next call runs on a new one", async () => {
    const typescript = bundledTypeScript();
    const exe = typescript && nativeExecutable(typescript);
    if (!exe) throw new Error("the bundled TypeScript 7 native server is missing");
    // The same server configured under lspServers, with a short answer timeout (the built-in one waits 30 s).
    const s = project(TYPESCRIPT_PROJECT, {
      servers: [
        {
          name: "tsnative",
          config: {
            command: exe,
            args: ["--lsp", "--stdio"],
            extensionToLanguage: { ".ts": "typescript" },
            requestTimeout: 8_000,
          },
          file: "test settings",
        },
      ],
    });
    const main = s.path("src", "main.ts");
    const hover = { operation: "hover", filePath: main, ...positionOf(main, "const total", "totalArea") };
    expect(await runToolText(LspTool, hover, s.context)).toContain(
      "function totalArea(shapes: Shape[]): number",
    );
    const frozen = runningPid(s);
    process.kill(-frozen, "SIGSTOP");
    const error = await toolError(runToolText(LspTool, hover, s.context));
    expect(error.code).toBe(LSP_ERROR.timeout);
    expect(error.message).toBe(
      "The tsnative language server did not answer textDocument/hover (no answer in 8 s); it is taken as hung and restarted on the next call.",
    );
    await waitFor(() => !isAlive(frozen), "the hung server to be killed");
    expect(await runToolText(LspTool, hover, s.context)).toContain(
      "function totalArea(shapes: Shape[]): number",
    );
    expect(runningPid(s)).not.toBe(frozen);
  });
});
