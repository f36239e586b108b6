// `keel run` as a real child process, a scripted model calling the LSP tool: the answer reaches the
// model, and when the run ends no language server is left running.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliProviderArgs, startServer, TEST_KEY } from "../../agent/testing/harness.ts";
import { text, toolUse } from "../../agent/testing/script.ts";
import type { ScriptedServer } from "../../agent/testing/server.ts";
import { positionOf, TYPESCRIPT_PROJECT, writeProject } from "../../lsp/testing/fixtures.ts";

const ENTRY = join(import.meta.dirname, "..", "..", "cli", "entry.ts");
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

function run(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ENTRY, ...args], {
      cwd,
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe.skipIf(process.platform !== "linux")("LSP in keel run", () => {
  it("the model gets the definition, and the server stops with the run", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "keel-lsp-run-")));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    const project = join(root, "project");
    const home = join(root, "home");
    mkdirSync(home);
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
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      KEEL_HOME: home,
      KEEL_MANAGED_SETTINGS: join(root, "no-managed-settings.json"),
      ANTHROPIC_API_KEY: TEST_KEY,
    };
    const result = await run(
      ["run", ...cliProviderArgs(server), "where is totalArea defined?"],
      project,
      env,
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(JSON.stringify(server.requests[1]?.body)).toContain(
      "src/shapes.ts:20:17  export function totalArea(shapes: Shape[]): number {",
    );
    expect(processesIn(project)).toEqual([]);
  });
});
