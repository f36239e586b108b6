// Test helper: a temp folder that lasts one test, so what a test writes is not left in the temp folder.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";

/** A new folder `<tmp>/<prefix>XXXXXX` (its real path), removed when the running test has finished. */
export function tempFolderForTest(prefix: string): string {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  onTestFinished(() => rmSync(folder, { recursive: true, force: true, maxRetries: 5 }));
  return folder;
}
