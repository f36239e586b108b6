#!/usr/bin/env node
// Launcher: Keel needs Node >= 22. When an older node runs this file and the project's pinned Node
// (the `node` npm package) is installed beside it, re-run with that one instead of failing.
import module from "node:module";
import { fileURLToPath } from "node:url";

// fs through require(): an ES import of node:fs builds a facade that reads every export, and its lazy
// stream getters then load all of fs's streams (~10 ms of every start).
const fs = module.createRequire(import.meta.url)("node:fs");
const { existsSync } = fs;

// Agents read a hook's exit code 2 as "block the tool call": a `keel hook` that cannot start blocks
// the call it was asked about (a guard that cannot decide says no), like every command that cannot start.
const cannotStart = 2;

// The bundled CLI (scripts/bundle-cli.mjs) loads a few files instead of hundreds; the plain compiled
// modules are the same program, used when the bundle was not built.
const bundled = new URL("../dist/cli-bundle/main.js", import.meta.url);
const bundledEntry = existsSync(fileURLToPath(bundled));
const entry = bundledEntry ? bundled : new URL("../dist/cli/main.js", import.meta.url);
const built = existsSync(fileURLToPath(entry));
const launcher = { binFile: fileURLToPath(import.meta.url), entryFile: fileURLToPath(entry) };

// Node's on-disk cache of compiled code (Node >= 22.1), in Keel's own bounded folder (compileCache.js).
// Optional: a Node without it, or a folder that cannot be private, still runs.
if (built) {
  const { enableCompileCache } = await import("./compileCache.js");
  await enableCompileCache(module, fs, launcher.entryFile);
}

// `keel hook <agent>` and `keel check <Name> <json>` are first offered to this user's warm decision
// server (src/cli/decisionServer/): it answers in a few milliseconds what a new process needs ~0.1 s to
// load for. Without one, the command runs here as always, and a server is started for next time.
let server = {};
if (built && ["hook", "check"].includes(process.argv[2])) {
  try {
    // The bundle's client file holds the client's few modules; without a bundle, the compiled module.
    const client = bundledEntry
      ? new URL("client.js", bundled)
      : new URL("../dist/cli/decisionServer/client.js", import.meta.url);
    const { answerThroughServer } = await import(client.href);
    server = await answerThroughServer(process.argv.slice(2), launcher);
  } catch {}
  if (server.exitCode !== undefined) process.exit(server.exitCode);
}

const major = Number(process.versions.node.split(".")[0]);
if (major < 22) {
  // One more Node start; signals are passed on and this process ends as the child does (relaunch.js).
  const { oldNodeMessage, relaunchOnPinnedNode } = await import("./relaunch.js");
  if (!relaunchOnPinnedNode(fileURLToPath(import.meta.url), process.argv.slice(2))) {
    process.stderr.write(oldNodeMessage());
    process.exit(cannotStart);
  }
  await new Promise(() => {}); // the child's exit ends this process
}

// A long-lived MCP server allocates per call; a larger young generation means fewer, cheaper minor GCs.
// `keel audit` streams a log of any size, where almost nothing outlives a line: a young generation that
// stays small keeps it within tens of MB (bench/audit.bench.ts).
const V8_FLAGS = {
  mcp: "--max-semi-space-size=16",
  audit: "--max-semi-space-size=1 --semi-space-growth-factor=1",
};
if (V8_FLAGS[process.argv[2]]) {
  try {
    const v8 = await import("node:v8");
    v8.setFlagsFromString(V8_FLAGS[process.argv[2]]);
  } catch {}
}

if (!built) {
  process.stderr.write(
    "keel is not built yet: run `npm install` (or `npm run build`) in the keel folder first.\n",
  );
  process.exit(cannotStart);
}
if (process.argv[2] === "--keel-decision-server") {
  const { serveDecisions } = await import(entry.href);
  await serveDecisions(process.argv[3], process.argv[4], launcher.entryFile);
} else {
  const { main } = await import(entry.href);
  process.exitCode = await main(process.argv.slice(2), server.stdin ? { stdin: server.stdin } : {});
  server.start?.();
}
