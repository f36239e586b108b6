import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BashTool } from "../../tools/bash/BashTool.ts";
import { callTool, createShellTestSession } from "../../tools/bash/testing/context.ts";
import { bundledRipgrepDir, pathHasRipgrep, pathWithRipgrep } from "./bundledRipgrep.ts";

const fakeBin = mkdtempSync(join(tmpdir(), "keel-fake-rg-"));
writeFileSync(join(fakeBin, "rg"), "#!/bin/sh\necho system-rg\n");
chmodSync(join(fakeBin, "rg"), 0o755);
afterAll(() => rmSync(fakeBin, { recursive: true, force: true }));

describe("the bundled rg on the Bash tool's PATH", () => {
  it("is shipped with Keel (@vscode/ripgrep)", () => {
    expect(bundledRipgrepDir()).toBeDefined();
  });

  it("is appended only when no folder of PATH holds an rg", () => {
    const dir = bundledRipgrepDir()!;
    expect(pathWithRipgrep("/usr/bin:/bin")).toBe(`/usr/bin:/bin${delimiter}${dir}`);
    expect(pathWithRipgrep(`${fakeBin}:/usr/bin`)).toBe(`${fakeBin}:/usr/bin`);
    expect(pathHasRipgrep(fakeBin)).toBe(true);
    expect(pathWithRipgrep(undefined)).toBe(dir);
  });

  it("makes `rg` run in Bash when the system has none, and leaves a system rg first", async () => {
    const session = await createShellTestSession();
    const path = process.env.PATH;
    try {
      writeFileSync(join(session.root, "notes.txt"), "alpha\nneedle here\n");
      process.env.PATH = (path ?? "")
        .split(delimiter)
        .filter((dir) => !pathHasRipgrep(dir))
        .join(delimiter);
      const found = await callTool(BashTool, { command: "rg -n needle notes.txt" }, session.context);
      expect(found.text).toBe("2:needle here");
      expect(found.data.isError).toBe(false);
      process.env.PATH = `${fakeBin}${delimiter}${process.env.PATH}`;
      const system = await callTool(BashTool, { command: "rg needle" }, session.context);
      expect(system.text).toBe("system-rg");
    } finally {
      process.env.PATH = path;
      await session.cleanup();
    }
  });
});
