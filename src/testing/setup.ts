// Vitest's setup file: runs before every test file, in its context. Registered first, this afterAll runs
// after the file's own afterAll hooks (vitest runs afterAll hooks in reverse order of registration), so
// the temp folders made for the whole file are removed once nothing of the file uses them.
import { afterAll } from "vitest";
import { removeFileFolders } from "../tool/testing/tempFolder.ts";

afterAll(() => removeFileFolders());
