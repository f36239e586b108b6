#!/usr/bin/env node
// Launcher: Keel needs Node >= 22. When an older node runs this file and the project's pinned Node
// (the `node` npm package) is installed beside it, re-run with that one instead of failing.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import module from "node:module";
import { fileURLToPath } from "node:url";

// Agents read a hook's exit code 2 as "block the tool call": a `keel hook` that cannot start says so
// with 1, an error they show without blocking the person's work.
const cannotStart = process.argv[2] === "hook" ? 1 : 2;

const major = Number(process.versions.node.split(".")[0]);
if (major < 22) {
  const pinned = fileURLToPath(new URL("../node_modules/node/bin/node", import.meta.url));
  if (existsSync(pinned) && process.execPath !== pinned) {
    const run = spawnSync(pinned, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
      stdio: "inherit",
    });
    process.exit(run.status ?? 1);
  }
  process.stderr.write(
    `keel needs Node.js 22 or newer (this is ${process.version}). Install a newer Node, or run \`npm install\` in the keel folder to get its pinned Node.\n`,
  );
  process.exit(cannotStart);
}

// Node's on-disk cache of compiled code (Node >= 22.1): about 60 ms off every start. Optional, so a Node
// without it (or with the cache folder unwritable) still runs.
try {
  module.enableCompileCache?.();
} catch {}

// A long-lived MCP server allocates per call; a larger young generation means fewer, cheaper minor GCs.
if (process.argv[2] === "mcp") {
  try {
    const v8 = await import("node:v8");
    v8.setFlagsFromString("--max-semi-space-size=16");
  } catch {}
}

// The bundled CLI (scripts/bundle-cli.mjs) loads a few files instead of hundreds; the plain compiled
// modules are the same program, used when the bundle was not built.
const bundled = new URL("../dist/cli-bundle/main.js", import.meta.url);
const entry = existsSync(fileURLToPath(bundled)) ? bundled : new URL("../dist/cli/main.js", import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write(
    "keel is not built yet: run `npm install` (or `npm run build`) in the keel folder first.\n",
  );
  process.exit(cannotStart);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
