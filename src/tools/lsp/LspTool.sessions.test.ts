import { readdirSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliProviderArgs, startServer } from "../../agent/testing/harness.ts";
import { text, toolUse } from "../../agent/testing/script.ts";
import type { ScriptedServer } from "../../agent/testing/server.ts";
import { keelWorld, runKeel } from "../../cli/testing/keelProcess.ts";
import { positionOf, TYPESCRIPT_PROJECT, writeProject } from "../../lsp/testing/fixtures.ts";
import { connectStdio, KEEL_ENTRY, waitFor } from "../../mcp/testing/harness.ts";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Processes whose working directory is inside `dir` (language servers run in their workspace). */
function processesIn(dir: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cwd = readlinkSync(`/proc/${name}/cwd`);
      if (cwd === dir || cwd.startsWith(`${dir}/`)) found.push(Number(name));
    } catch {
      // Gone, or not ours to look at.
    }
  }
  return found;
}

describe.skipIf(process.platform !== "linux")("LSP in keel run", () => {
  it("the model gets the definition, and the server stops with the run", async () => {
    const world = keelWorld();
    const { project } = world;
    writeProject(project, TYPESCRIPT_PROJECT);
    const main = join(project, "src", "main.ts");
    const server: ScriptedServer = await startServer("anthropic", [
      {
        blocks: [
          toolUse("LSP", {
            operation: "goToDefinition",
            filePath: main,
            ...positionOf(main, "const total", "totalArea"),
          }),
        ],
      },
      { blocks: [text("totalArea is in shapes.ts.")] },
    ]);
    cleanups.push(() => server.close());
    const result = await runKeel(["run", ...cliProviderArgs(server), "where is totalArea defined?"], world);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(JSON.stringify(server.requests[1]?.body)).toContain(
      "src/shapes.ts:20:17  export function totalArea(shapes: Shape[]): number {",
    );
    expect(processesIn(project)).toEqual([]);
  });

  it("keel mcp: the server runs while the client is connected and stops when it leaves", async () => {
    const { root, project, home } = keelWorld();
    writeProject(project, TYPESCRIPT_PROJECT);
    const main = join(project, "src", "main.ts");
    const session = await connectStdio({
      entry: KEEL_ENTRY,
      args: ["--cwd", project],
      env: {
        ...(process.env as Record<string, string>),
        HOME: home,
        KEEL_HOME: home,
        KEEL_MANAGED_SETTINGS: join(root, "no-managed-settings.json"),
      },
    });
    const result = await session.client.callTool({
      name: "LSP",
      arguments: {
        operation: "goToDefinition",
        filePath: main,
        ...positionOf(main, "const total", "totalArea"),
      },
    });
    expect(JSON.stringify(result.content)).toContain("src/shapes.ts:20:17");
    expect(processesIn(project).length).toBeGreaterThan(0);
    await session.close();
    await waitFor(() => processesIn(project).length === 0, "the language server to stop");
  });
});
