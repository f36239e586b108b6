// `keel mcp` flags and policy over stdio: --tools/--exclude-tools, --mode, project hooks, and signals.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectStdio, isAlive, makeWorld, processGroupOf, waitFor } from "./testing/harness.ts";

type Text = { type: "text"; text: string };
const textOf = (result: unknown) =>
  ((result as { content?: Text[] }).content ?? []).map((block) => block.text).join("\n");

describe("keel mcp flags", () => {
  it("serves only the chosen tools and applies --mode", async () => {
    const world = makeWorld();
    const session = await connectStdio({
      args: [
        "--cwd",
        world.project,
        "--tools",
        "Echo,Touch,Sleep",
        "--exclude-tools",
        "Sleep",
        "--mode",
        "plan",
      ],
      env: world.env,
    });
    try {
      const { tools } = await session.client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(["Echo", "Touch"]);
      const result = await session.client.callTool({ name: "Touch", arguments: { name: "x" } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/plan mode/);
    } finally {
      await session.close();
    }
  });

  it("runs the project's hooks on every call (trusted folder)", async () => {
    const world = makeWorld();
    mkdirSync(join(world.project, ".keel"));
    writeFileSync(
      join(world.project, ".keel", "settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: "Echo",
              hooks: [{ type: "command", command: "echo 'blocked by the project hook' >&2; exit 2" }],
            },
          ],
        },
      }),
    );
    const session = await connectStdio({ args: ["--cwd", world.project, "--trust"], env: world.env });
    try {
      const result = await session.client.callTool({ name: "Echo", arguments: { text: "hi" } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/blocked by the project hook/);
      const steps = await session.client.callTool({ name: "Steps", arguments: { steps: 1 } });
      expect(steps.isError).toBeFalsy();
    } finally {
      await session.close();
    }
  });

  it("takes running commands down with it when stopped with SIGTERM", async () => {
    const world = makeWorld();
    const session = await connectStdio({
      args: ["--cwd", world.project, "--allow", "Bash(sleep:*)"],
      env: world.env,
    });
    const seconds = `31.${process.pid}${Date.now() % 1000}`;
    void session.client
      .callTool({ name: "Bash", arguments: { command: `sleep ${seconds}` } })
      .catch(() => {});
    let pgid = 0;
    await waitFor(() => {
      pgid = processGroupOf(["sleep", seconds]);
      return pgid > 0;
    }, "Bash to start the sleep");
    process.kill(session.transport.pid!, "SIGTERM");
    await waitFor(() => !isAlive(-pgid), "the sleep's process group to die with the server");
    await session.close().catch(() => {});
  });
});
