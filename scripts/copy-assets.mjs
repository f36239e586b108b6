// Copies non-TypeScript assets that tools load at run time (prompt.md files) from src/ into dist/
// (or into the folder given: `node scripts/copy-assets.mjs out/dist`).
import { cpSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

function copyAssets(from, to) {
  for (const name of readdirSync(from)) {
    const source = join(from, name);
    const target = join(to, name);
    if (statSync(source).isDirectory()) copyAssets(source, target);
    else if (name.endsWith(".md")) cpSync(source, target);
  }
}

copyAssets("src", process.argv[2] ?? "dist");
