// Test helper: temp folders that last one test (or, made outside a test, one test file), so what a test
// writes is not left in the temp folder. The file-level removal runs from the suite's setup file
// (src/testing/setup.ts, vitest's setupFiles), which holds an afterAll for every test file.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";

/** Folders made outside a running test (a beforeAll, a describe body), removed when the file ends. */
const forTheFile = new Set<string>();

function remove(folder: string): void {
  rmSync(folder, { recursive: true, force: true, maxRetries: 5 });
}

/**
 * A new folder `<tmp>/<prefix>XXXXXX` (its real path), removed when the running test has finished, or,
 * when made outside a test, once the test file's own afterAll hooks have run.
 */
export function tempFolderForTest(prefix: string): string {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  try {
    onTestFinished(() => remove(folder));
  } catch {
    forTheFile.add(folder);
  }
  return folder;
}

/** Removes the folders made for the whole test file (the setup file's afterAll). */
export function removeFileFolders(): void {
  for (const folder of forTheFile) remove(folder);
  forTheFile.clear();
}
