import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSettings } from "./load.ts";
import { createTestWorld, type TestWorld } from "./testWorld.ts";
import { isFolderTrusted } from "./trust.ts";
import { askToTrustFolder } from "./trustPrompt.ts";

let world: TestWorld;
beforeEach(() => {
  world = createTestWorld();
  world.write("project/.claude/settings.json", { permissions: { allow: ["Bash"] }, hooks: { Stop: [] } });
});
afterEach(() => world.cleanup());

async function ask(answer: string | undefined) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = "";
  output.on("data", (chunk) => {
    shown += String(chunk);
  });
  if (answer === undefined) input.end();
  else input.write(`${answer}\n`);
  const { untrusted } = loadSettings({ cwd: world.project, env: world.env });
  const trusted = await askToTrustFolder({
    projectRoot: world.project,
    untrusted,
    input,
    output,
    env: world.env,
  });
  return { trusted, shown };
}

describe("the trust question", () => {
  it("names what would apply, and remembers a yes", async () => {
    const { trusted, shown } = await ask("y");
    expect(trusted).toBe(true);
    expect(shown).toMatch(/Do you trust the files in .*project\?/);
    expect(shown).toContain("1 allow rule (Bash)");
    expect(isFolderTrusted(world.project, world.env)).toBe(true);
    // It says where the answer is kept, and how to take it back.
    expect(shown).toContain(
      `Trusted ${world.project} (remembered in ${join(world.home, ".keel", "config.json")}; undo with \`keel trust --revoke ${world.project}\`).`,
    );
    expect(loadSettings({ cwd: world.project, env: world.env }).permissionContext.alwaysAllowRules).toEqual({
      project: ["Bash"],
    });
  });

  it.each([["n"], [""], ["whatever"], [undefined]])(
    "anything but yes (%j) leaves the folder untrusted",
    async (answer) => {
      expect((await ask(answer)).trusted).toBe(false);
      expect(isFolderTrusted(world.project, world.env)).toBe(false);
    },
  );
});
