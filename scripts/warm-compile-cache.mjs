// The last step of `npm run build`: fills this build's compile cache (bin/compileCache.js) with the code
// of the calls a process of its own makes, so that the first `keel check` or `keel hook` after a build
// does not decide what every later one reuses.
// Node writes a file's cache entry when the process that first compiled it exits, with the functions that
// process ran; a later process that finds the entry never adds to it. Left to chance, the first command
// after a build (often `keel --version` or a Read) fixes the entry of the decision chunks, and every Bash
// check after it compiles the functions it needs anew (~7 ms of each start here, bench/startup.bench.ts).
// So one process runs the calls of each kind, in a temporary project and home, and exits. Nothing of the
// user's is read or written; a failure only means no warm cache, so it warns and the build goes on.
//   node scripts/warm-compile-cache.mjs [dist folder]     (default: dist)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import module from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const require = module.createRequire(import.meta.url);
const dist = resolve(process.argv[2] ?? "dist");
const entryFile = join(dist, "cli-bundle", "main.js");
const { enableCompileCache } = await import(pathToFileURL(resolve(dist, "../bin/compileCache.js")).href);

const sandbox = mkdtempSync(join(tmpdir(), "keel-warm-cache-"));
try {
  await enableCompileCache(module, require("node:fs"), entryFile);
  if (!module.getCompileCacheDir?.())
    throw new Error("no compile cache here (Node < 22.8, or no private folder)");
  const project = join(sandbox, "project");
  const home = join(sandbox, "home");
  mkdirSync(join(project, "src"), { recursive: true });
  mkdirSync(home);
  writeFileSync(join(project, "README.md"), "# warm\n");
  writeFileSync(join(project, "src", "index.ts"), "export const warm = 1;\n");
  const env = { PATH: process.env.PATH ?? "", HOME: home, TMPDIR: tmpdir(), KEEL_DECISION_SERVER: "off" };
  const io = (stdin) => ({
    cwd: project,
    env,
    tty: { stdin: false, stdout: false, stderr: false },
    out: () => {},
    err: () => {},
    ...(stdin === undefined ? {} : { stdin: { text: stdin } }),
  });
  const bundle = join(dist, "cli-bundle");
  // What bin/keel.js loads before a hook or check: the decision server's client.
  await import(pathToFileURL(join(bundle, "client.js")).href);
  const { parseBashWithBaselineCompilerOnly, runCommandLine } = await import(pathToFileURL(entryFile).href);
  // As main() does: its Bash parses run on V8's baseline compiler alone (grammar/wasmCompiler.ts).
  parseBashWithBaselineCompilerOnly();
  const calls = {
    Read: { file_path: join(project, "README.md") },
    Bash: { command: "git status && git diff | head -n 3; ls -la src > /dev/null" },
    Edit: { file_path: join(project, "README.md"), old_string: "warm", new_string: "cold" },
    Write: { file_path: join(project, "new.md"), content: "x" },
    Glob: { pattern: "**/*.ts" },
    Grep: { pattern: "warm", path: project },
  };
  for (const [tool, input] of Object.entries(calls))
    await runCommandLine(["check", tool, JSON.stringify(input), "--cwd", project], io());
  for (const tool of ["Read", "Bash", "Edit"]) {
    const event = {
      session_id: "warm-compile-cache",
      transcript_path: join(project, "transcript.jsonl"),
      cwd: project,
      permission_mode: "default",
      hook_event_name: "PreToolUse",
      tool_name: tool,
      tool_input: calls[tool],
      tool_use_id: `toolu_warm_${tool}`,
    };
    await runCommandLine(["hook", "claude-code"], io(JSON.stringify(event)));
  }
  for (const tool of ["Read", "Grep", "Glob"])
    await runCommandLine(["tool", tool, JSON.stringify(calls[tool]), "--cwd", project], io());
} catch (error) {
  process.stderr.write(`warm-compile-cache: skipped (${error instanceof Error ? error.message : error})\n`);
} finally {
  rmSync(sandbox, { recursive: true, force: true });
}
