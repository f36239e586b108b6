import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliProviderArgs, startServer } from "../../agent/testing/harness.ts";
import { text, toolUse } from "../../agent/testing/script.ts";
import type { ScriptedServer } from "../../agent/testing/server.ts";
import { firstUserText } from "../../tools/agent/testing.ts";
import { type KeelWorld, removeWorld, runKeel, suiteKeelWorld } from "../testing/keelProcess.ts";

let world: KeelWorld;
let root: string;
let project: string;
let server: ScriptedServer;

beforeAll(async () => {
  world = suiteKeelWorld();
  ({ root, project } = world);
  mkdirSync(join(project, ".claude", "commands"), { recursive: true });
  writeFileSync(
    join(project, ".claude", "commands", "greet.md"),
    "---\ndescription: Greet someone\nmodel: claude-greet-model\n---\nSay hello to $1. The shell says: !`echo from-shell`",
  );
  writeFileSync(join(project, ".claude", "commands", "touchy.md"), "Touch: !`touch touched-by-command`");
  writeFileSync(
    join(project, ".claude", "commands", "stamp.md"),
    "---\ndescription: Stamp a file\nallowed-tools: Bash(touch:*)\n---\nStamp the file $1.",
  );
  const record = `cat >> ${join(root, "hook-inputs.jsonl")}; echo >> ${join(root, "hook-inputs.jsonl")}`;
  writeFileSync(
    join(project, ".claude", "settings.json"),
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: record }] }] },
    }),
  );
  // "Stamp the file X." gets a Bash call touching X, then a reply; anything else a reply.
  server = await startServer("anthropic", (request) => {
    const stamp = /^Stamp the file (\S+)\.$/.exec(firstUserText(request));
    const messages = (request.body.messages as unknown[] | undefined) ?? [];
    if (stamp && messages.length === 1)
      return { blocks: [toolUse("Bash", { command: `touch ${stamp[1]}` })] };
    return { blocks: [text("Hello, Ada!")] };
  });
});
afterAll(async () => {
  await server?.close();
  if (world) removeWorld(world);
});

const keel = (args: string[]) => runKeel(args, world);

describe('keel run "/name args"', () => {
  it("sends the expanded command with its model; the `!` line went through the hooks with the real transcript_path", async () => {
    const result = await keel(["run", "--trust", ...cliProviderArgs(server), "/greet Ada"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Hello, Ada!\n");
    const request = server.requests.at(-1)!;
    expect(request.body.model).toBe("claude-greet-model");
    expect(firstUserText(request)).toBe("Say hello to Ada. The shell says: from-shell");
    const hook = JSON.parse(readFileSync(join(root, "hook-inputs.jsonl"), "utf8").trim().split("\n")[0]!);
    expect(hook).toMatchObject({ hook_event_name: "PreToolUse", tool_input: { command: "echo from-shell" } });
    expect(hook.transcript_path).toMatch(/\.jsonl$/);
    expect(readFileSync(hook.transcript_path, "utf8")).toContain("Say hello to Ada");
  });

  it("stops before any request when a line of the command needs an approval nobody can give", async () => {
    const before = server.requests.length;
    const result = await keel(["run", "--trust", ...cliProviderArgs(server), "/touchy"]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("The command /touchy runs `touch touched-by-command`, which was not run");
    expect(existsSync(join(project, "touched-by-command"))).toBe(false);
    expect(server.requests.length).toBe(before);
  });

  it("the command's allowed-tools allow the model's calls while it answers, in a trusted folder only", async () => {
    const trusted = await keel(["run", "--trust", ...cliProviderArgs(server), "/stamp stamped-trusted"]);
    expect(trusted.code).toBe(0);
    expect(existsSync(join(project, "stamped-trusted"))).toBe(true);
    const untrusted = await keel(["run", ...cliProviderArgs(server), "/stamp stamped-untrusted"]);
    expect(untrusted.stderr).toContain("touch stamped-untrusted");
    expect(existsSync(join(project, "stamped-untrusted"))).toBe(false);
  });

  it("sends a prompt that names no command as typed", async () => {
    await keel(["run", "--trust", ...cliProviderArgs(server), "/usr/bin is a folder"]);
    expect(firstUserText(server.requests.at(-1)!)).toBe("/usr/bin is a folder");
  });
});
