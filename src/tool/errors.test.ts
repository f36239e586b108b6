import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The type system keeps unknown codes out; this keeps the table itself honest.
const SRC = join(import.meta.dirname, "..");
const table = readFileSync(join(import.meta.dirname, "errors.ts"), "utf8");
const rows = [...table.matchAll(/^\s*\| "([a-z_]+)";?(?: \/\/ (.*))?$/gm)].map(([, code, meaning]) => ({
  code: code!,
  meaning: meaning ?? "",
}));

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

describe("the tool error table", () => {
  it("lists each code once, with its meaning on the same line", () => {
    expect(rows.length).toBeGreaterThan(30);
    expect(new Set(rows.map((row) => row.code)).size).toBe(rows.length);
    for (const row of rows) expect(row.meaning, row.code).not.toBe("");
  });

  it("declares no code that nothing produces", () => {
    const code = sourceFiles(SRC)
      .filter((path) => !path.endsWith(join("tool", "errors.ts")))
      .map((path) => readFileSync(path, "utf8"))
      .join("\n");
    const unused = rows.filter((row) => !code.includes(`"${row.code}"`)).map((row) => row.code);
    expect(unused).toEqual([]);
  });
});
