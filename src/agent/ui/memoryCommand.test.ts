import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempFolderForTest } from "../../tool/testing/tempFolder.ts";
import { memoryCommand, memoryEntries } from "./memoryCommand.ts";

const base = tempFolderForTest("keel-memory-command-");
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("/memory", () => {
  it("lists instruction files and the memory of each agent type that keeps one, and edits them", async () => {
    const project = join(base, "project");
    const home = join(base, "home");
    mkdirSync(join(project, ".keel", "agents"), { recursive: true });
    mkdirSync(join(home, ".claude"), { recursive: true });
    writeFileSync(join(home, ".claude", "CLAUDE.md"), "- be brief\n");
    writeFileSync(
      join(project, ".keel", "agents", "keeper.md"),
      "---\nname: keeper\ndescription: Keeps notes\nmemory: local\n---\nKeep notes.\n",
    );
    const memory = join(project, ".keel", "agent-memory-local", "keeper");
    mkdirSync(memory, { recursive: true });
    writeFileSync(join(memory, "builds.md"), "make all\n");
    const printed: string[] = [];
    const host = {
      projectRoot: project,
      cwd: project,
      print: (text: string) => printed.push(text),
      env: { KEEL_HOME: home, HOME: home },
      editFile: async () => "The editor (false) exited with 1.",
    };
    const entries = await memoryEntries(host);
    expect(entries.map((entry) => `${entry.label}|${entry.path}|${entry.exists}`)).toEqual([
      `user instructions|${join(home, ".claude", "CLAUDE.md")}|true`,
      `project instructions|${join(project, "CLAUDE.md")}|false`,
      `keeper agent memory (local)|${join(memory, "MEMORY.md")}|false`,
      `keeper agent notes|${join(memory, "builds.md")}|true`,
    ]);
    await memoryCommand(host, "add 3 The cache lives in /var/cache/app");
    expect(readFileSync(join(memory, "MEMORY.md"), "utf8")).toBe("- The cache lives in /var/cache/app\n");
    await memoryCommand(host, "show 4");
    expect(printed.at(-1)).toBe(`${join(memory, "builds.md")}:\nmake all`);
    await memoryCommand(host, "edit 2");
    expect(printed.at(-1)).toBe("The editor (false) exited with 1.");
    await memoryCommand(host, "show 9");
    expect(printed.at(-1)).toContain("Usage: /memory");
  });
});
