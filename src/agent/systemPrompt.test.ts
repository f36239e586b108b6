// The system prompt's parts: memory files in order with @imports, environment facts with git status.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { buildTool } from "../tool/Tool.ts";
import { tempFolderForTest } from "../tool/testing/tempFolder.ts";
import { importReferences, loadMemoryFiles, projectFolders } from "./memory.ts";
import { buildSystemPrompt, keelBasePrompt } from "./systemPrompt.ts";
import { ToolPool } from "./toolPool.ts";

function world() {
  const root = tempFolderForTest("keel-memory-");
  const home = join(root, "home");
  const repo = join(root, "repo");
  const sub = join(repo, "packages", "app");
  mkdirSync(join(home, ".claude"), { recursive: true });
  mkdirSync(join(sub, ".keel"), { recursive: true });
  execFileSync("git", ["init", "-q", "-b", "main", repo]);
  return { root, home, repo, sub };
}

describe("memory files", () => {
  it("reads the user's files, then the repo root down to the cwd, with @imports after their importer", () => {
    const { home, repo, sub } = world();
    writeFileSync(join(home, ".claude", "CLAUDE.md"), "user rule");
    writeFileSync(join(repo, "CLAUDE.md"), "root rule, see @docs/style.md and `@not/imported.md`");
    mkdirSync(join(repo, "docs"));
    writeFileSync(join(repo, "docs", "style.md"), "style rule, and back to @../CLAUDE.md (a cycle)");
    writeFileSync(join(repo, "AGENTS.md"), "agents rule");
    writeFileSync(join(sub, ".keel", "KEEL.md"), "package rule @~/.claude/CLAUDE.md");
    const files = loadMemoryFiles(sub, home);
    expect(files.map((file) => file.content.split(",")[0])).toEqual([
      "user rule",
      "root rule",
      "style rule",
      "agents rule",
      "package rule @~/.claude/CLAUDE.md",
    ]);
    expect(files[2]?.importedFrom).toBe(join(repo, "CLAUDE.md"));
  });

  it("stops at the cwd outside a repository", () => {
    const dir = tempFolderForTest("keel-norepo-");
    expect(projectFolders(dir)).toEqual([dir]);
  });

  it.each([
    ["see @a.md", ["a.md"]],
    ["@./b/c.md and @~/d.md", ["./b/c.md", "~/d.md"]],
    ["mail me at me@example.com", []],
    ["`@code` is not an import", []],
    ["```\n@fenced.md\n```\n@after.md", ["after.md"]],
    ["a url @https://x.y", []],
  ])("import references in %j", (content, expected) => {
    expect(importReferences(content)).toEqual(expected);
  });
});

describe("system prompt", () => {
  it("holds the base prompt, deferred tools, environment with git status, and memory; cached at the end", async () => {
    const { home, repo } = world();
    writeFileSync(join(repo, "AGENTS.md"), "always run the tests");
    writeFileSync(join(repo, "new.txt"), "x");
    const deferred = buildTool({
      name: "Rare",
      inputSchema: z.object({}),
      maxResultSizeChars: 10,
      description: () => "",
      prompt: () => "",
      shouldDefer: true,
      searchHint: "does rare things",
      call: async () => ({ data: "" }),
    });
    const parts = await buildSystemPrompt(new ToolPool([deferred]), {
      cwd: repo,
      home,
      now: new Date("2026-11-22T10:00:00Z"),
    });
    const all = parts.map((part) => part.text).join("\n\n");
    expect(parts[0]?.text).toBe(keelBasePrompt());
    expect(all).toContain("- Rare: does rare things");
    expect(all).toContain(`Working directory: ${repo}`);
    expect(all).toContain("Today's date: 2026-11-22");
    expect(all).toContain("Git branch: main");
    expect(all).toMatch(/Git status \(2 changed\):[\s\S]*\?\? new\.txt/);
    expect(all).toContain("always run the tests");
    expect(parts.map((part) => part.cache === true)).toEqual(
      parts.map((_, index) => index === parts.length - 1),
    );
  });
});
