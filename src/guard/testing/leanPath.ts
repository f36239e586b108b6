// What a `keel hook` process may load, as paths of the repository (src/... and node_modules/...): checked
// on the process run from source (guard/leanPath.test.ts) and on the bundled CLI (cli/bundle.test.ts).
import { writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Writes into `folder` a module for `node --import` that records every module the process resolves,
 * as a JSON list of URLs written at exit to the file named by KEEL_TEST_LOADED, followed by the Node
 * built-ins loaded after it ran (`builtin:<name>`, internal ones included); returns its path.
 */
export function writeModuleRecorder(folder: string): string {
  const recorder = join(folder, "record-modules.mjs");
  writeFileSync(
    recorder,
    [
      'import { registerHooks } from "node:module";',
      'import { writeFileSync } from "node:fs";',
      "const loaded = new Set();",
      "registerHooks({ resolve(specifier, context, next) { const found = next(specifier, context); loaded.add(found.url); return found; } });",
      "const before = new Set(process.moduleLoadList);",
      'const builtins = () => process.moduleLoadList.filter((entry) => !before.has(entry) && entry.startsWith("NativeModule ")).map((entry) => "builtin:" + entry.slice(13));',
      'process.on("exit", () => writeFileSync(process.env.KEEL_TEST_LOADED, JSON.stringify([...loaded, ...builtins()])));',
    ].join("\n"),
  );
  return recorder;
}

/** Never loaded to decide one call: MCP client or server, agent or model SDKs, terminal UI, pipeline. */
export const NEVER_ON_HOOK_PATH: readonly RegExp[] = [
  /^node_modules\/(@modelcontextprotocol|ajv|ink|react|@anthropic-ai\/sdk|openai|ai|@ai-sdk|unpdf|sharp|turndown)\//,
  /^src\/agent\//,
  /^src\/mcp\/(?!names\.ts$)/,
  /^src\/pipeline\/(?!input\.ts$|services\.ts$)/,
  /^src\/hooks\/(?!config\.ts$)/,
  /^src\/tools\/builtinTools\.ts$/,
  /^src\/cli\/session\.ts$/,
];

/** The files of `files` that the hook path must not load. */
export function notOnHookPath(files: readonly string[]): string[] {
  return files.filter((file) => NEVER_ON_HOOK_PATH.some((pattern) => pattern.test(file)));
}

/** The built-in tools (their folder names) whose tool module is among `files`. */
export function toolsLoaded(files: readonly string[]): string[] {
  return [
    ...new Set(files.flatMap((file) => file.match(/^src\/tools\/([^/]+)\/[A-Za-z]+Tool\.ts$/)?.[1] ?? [])),
  ];
}
