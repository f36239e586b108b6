// The test temp folders: one made in a test is gone when the next test runs; one made for the file lasts
// through its tests (src/testing/setup.ts removes it after the file).
import { existsSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { tempFolderForTest } from "./tempFolder.ts";

let forFile: string;
let forTest: string;
beforeAll(() => {
  forFile = tempFolderForTest("keel-tempfolder-file-");
});

describe("tempFolderForTest", () => {
  it("makes a folder that lasts the test", () => {
    forTest = tempFolderForTest("keel-tempfolder-test-");
    expect(existsSync(forTest)).toBe(true);
  });

  it("has removed the previous test's folder, and keeps the file's", () => {
    expect(forTest).toBeDefined();
    expect(existsSync(forTest)).toBe(false);
    expect(existsSync(forFile)).toBe(true);
  });
});
