// The ignore file handed to rg: private while it exists, and gone with its one run, leaving no folder.
import { existsSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { withGlobIgnoreFile } from "./ignoreFile.ts";

describe("withGlobIgnoreFile", () => {
  it("writes a file only this user reads, straight in the temp folder, and removes it after the run", async () => {
    let seen = "";
    await withGlobIgnoreFile(["*.ts"], async ([arg]) => {
      seen = arg!.replace("--ignore-file=", "");
      expect(dirname(seen)).toBe(tmpdir());
      expect(statSync(seen).mode & 0o777).toBe(0o600);
      expect(readFileSync(seen, "utf8")).toBe("*\n!*/\n!*.ts\n");
    });
    expect(existsSync(seen)).toBe(false);
  });

  it("removes the file when the run fails too, and writes none without globs", async () => {
    let seen = "";
    await expect(
      withGlobIgnoreFile(["!dist"], async ([arg]) => {
        seen = arg!.replace("--ignore-file=", "");
        throw new Error("rg failed");
      }),
    ).rejects.toThrow("rg failed");
    expect(seen).not.toBe("");
    expect(existsSync(seen)).toBe(false);
    expect(await withGlobIgnoreFile([], async (args) => args)).toEqual([]);
  });
});
