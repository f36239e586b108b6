// Bundles the compiled CLI (dist/cli/main.js, everything of Keel's own it imports, and the pure
// JavaScript packages it starts with: the MCP SDK, zod, ajv, commander...) into chunks under
// dist/cli-bundle/, which bin/keel.js runs. A start then loads a few dozen files instead of about 500
// (`keel mcp` spawn-to-tools/list: ~330 ms unbundled, ~220 ms bundled on the reference machine).
// Packages that find files of their own at run time (binaries, wasm, native addons) or that only some
// commands load stay external, resolved from node_modules as usual.
// Files Keel reads beside its modules (`new URL("./prompt.md", import.meta.url)`) keep coming from
// dist/: those URLs are rewritten relative to the bundle.
//   node scripts/bundle-cli.mjs [dist folder]     (default: dist)
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build, transformSync } from "esbuild";
import { groupChunks } from "./groupChunks.mjs";

const require = createRequire(import.meta.url);

const dist = resolve(process.argv[2] ?? "dist");

/** Left to node_modules: they locate binaries, wasm or addons beside themselves, or load only on demand. */
const EXTERNAL = [
  "@anthropic-ai/sandbox-runtime", // spawns helpers found beside its own files
  "@vscode/ripgrep", // the rg binary beside its own files
  "web-tree-sitter", // its .wasm beside its own files
  "tree-sitter-bash", // the grammar's .wasm
  "sharp", // native addon
  "unpdf", // large, only for PDF reads
  "turndown", // only for WebFetch
  "ink", // the terminal UI, only for the interactive session
  "react",
  "react/*",
  "@anthropic-ai/sdk", // model providers, only for the agent
  "openai",
  "ai",
  "@ai-sdk/*",
  "bullmq", // the remote-agent queue: only for isolation "remote" and `keel worker`
  "ioredis",
  "@opentelemetry/*", // the telemetry export, only in the flusher process when telemetry is on
  "@grpc/*",
];
const outdir = join(dist, "cli-bundle");
// esbuild writes here first (beside outdir, so URLs relative to a chunk stay right); groupChunks.mjs then
// regroups its chunks into outdir.
const stageDir = join(dist, ".cli-bundle-stage");

/** `new URL("./x", import.meta.url)`, `new URL("../package.json", import.meta.url)`, `` new URL(`./x/${y}`, ...) ``. */
const SIBLING_URL = /new URL\((["'`])(\.\.?\/[^"'`]*)\1, import\.meta\.url\)/g;

const siblingFiles = {
  name: "keel-sibling-files",
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /\.js$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      if (!args.path.startsWith(`${dist}/`) || !source.includes("import.meta.url")) return undefined;
      const prefix = relative(outdir, dirname(args.path)).split("\\").join("/");
      const contents = source.replace(
        SIBLING_URL,
        (_match, quote, rest) => `new URL(${quote}${prefix}/${rest}${quote}, import.meta.url)`,
      );
      return { contents, loader: "js" };
    });
  },
};

/**
 * The MCP SDK's server and client import their ajv provider at the top: ajv would load and build an
 * instance at every start. They get src/mcp/ajvOnDemand.ts instead, which hands each call to the
 * SDK's provider once a schema is first checked.
 */
let ajvRedirects = 0;
const ajvOnDemand = {
  name: "ajv-on-demand",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\.\/validation\/ajv-provider\.js$/ }, (args) => {
      if (!args.importer.includes("@modelcontextprotocol/sdk")) return undefined;
      ajvRedirects++;
      return { path: join(dist, "mcp", "ajvOnDemand.js") };
    });
  },
};

/**
 * zod exposes its ~40 message locales as `z.locales`, so a bundle keeps them all (~260 KB of the ~450 KB
 * zod chunk that every command loads and compiles). Keel speaks English only: the bundle gets `en`, the
 * locale zod installs by default. (Library users import their own zod, with every locale.)
 */
let zodLocaleRedirects = 0;
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
      if (!/[\\/]zod[\\/]v4[\\/]/.test(args.importer)) return undefined;
      zodLocaleRedirects++;
      return { path: join(dirname(args.importer), "..", "locales", "index.js"), namespace: "zod-locales" };
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: dirname(args.path),
      loader: "js",
    }));
  },
};

/**
 * commander requires child_process at the top for executable subcommands, which Keel does not use:
 * loading it (with net, dgram and streams) costs every command a few ms. It gets a stand-in that
 * requires child_process on first use instead.
 */
let commanderRewrites = 0;
const commanderLazyChildProcess = {
  name: "commander-lazy-child-process",
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      const eager = "const childProcess = require('node:child_process');";
      if (!source.includes(eager)) return undefined;
      commanderRewrites++;
      const lazy =
        "const childProcess = { spawn: (...spawnArgs) => require('node:child_process').spawn(...spawnArgs) };";
      return { contents: source.replace(eager, lazy), loader: "js" };
    });
  },
};

/**
 * `import { readFileSync } from "node:fs"` makes Node build an ES module facade of fs, which reads every
 * export, lazy getters included: `fs.ReadStream` then loads all of fs's streams (~10 ms of every start).
 * Bundled code gets fs through require() instead, with the same names; the getters (streams, promises,
 * access constants) are left out, so a bundled module importing one of them fails the build, not a start.
 */
const fsRequire = require("node:fs");
// fs.F_OK and the other access constants are deprecated getters on Node 24 (DEP0176) but plain values on
// the Node 20 a build may run on: reading them at every start would print a warning, so they are left out
// whichever Node builds.
const DEPRECATED_FS_NAMES = new Set(["F_OK", "R_OK", "W_OK", "X_OK"]);
const FS_NAMES = Object.getOwnPropertyNames(fsRequire).filter(
  (name) =>
    /^[A-Za-z_$][\w$]*$/.test(name) &&
    !DEPRECATED_FS_NAMES.has(name) &&
    !Object.getOwnPropertyDescriptor(fsRequire, name)?.get,
);
let fsRedirects = 0;
const fsWithoutFacade = {
  name: "fs-without-facade",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^(node:)?fs$/ }, (args) => {
      // require("fs") of bundled CommonJS is already a require: no facade.
      if (args.kind !== "import-statement") return undefined;
      fsRedirects++;
      return { path: "node:fs", namespace: "fs-required" };
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: "fs-required" }, () => ({
      contents: `const fs = require("node:fs");\nexport default fs;\nexport const { ${FS_NAMES.join(", ")} } = fs;\n`,
      loader: "js",
    }));
  },
};

/**
 * Builtins that a process deciding one call rarely touches, but that cost it to load: node:crypto (and,
 * through an ES import's facade, Web Crypto: ~6 ms), node:child_process (with dgram and the socket list)
 * and node:fs/promises (with readline and the fs streams). An ES import of one of them loads it with the
 * importing chunk. Bundled code gets a stand-in instead: each function of the module, which loads it on
 * its first call. Only functions are offered, so a bundled module importing anything else (a class, a
 * constant) fails the build, not a start.
 */
const LAZY_BUILTINS = ["child_process", "crypto", "fs/promises"];
let lazyBuiltinRedirects = 0;
const lazyBuiltins = {
  name: "lazy-builtins",
  setup(pluginBuild) {
    const filter = new RegExp(`^(node:)?(${LAZY_BUILTINS.join("|").replaceAll("/", "\\/")})$`);
    pluginBuild.onResolve({ filter }, (args) => {
      if (args.kind !== "import-statement") return undefined;
      lazyBuiltinRedirects++;
      return { path: args.path.replace(/^node:/, ""), namespace: "lazy-builtin" };
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, (args) => {
      const real = require(`node:${args.path}`);
      const functions = Object.keys(real).filter(
        (name) =>
          /^[a-z][\w$]*$/.test(name) &&
          typeof Object.getOwnPropertyDescriptor(real, name)?.value === "function",
      );
      const contents = [
        `let loaded;\nconst load = () => (loaded ??= require(${JSON.stringify(`node:${args.path}`)}));`,
        ...functions.map((name) => `export function ${name}(...args) { return load().${name}(...args); }`),
        "export default new Proxy({}, { get: (_target, name) => load()[name] });",
      ].join("\n");
      return { contents, loader: "js" };
    });
  },
};

/**
 * esbuild gives each module that the start chunk shares with only some tool chunks a file of its own:
 * every tool's meta.js (the facts tools/index.js registers, ~200 bytes) would be one more file each start
 * loads (~34 files, ~10 ms). Every import of a meta is read through one module that re-exports them all,
 * so the metas have the same importers and share one chunk.
 */
const toolsDir = join(dist, "tools");
let toolMetaRedirects = 0;
const toolMetasTogether = {
  name: "tool-metas-together",
  setup(pluginBuild) {
    // A tool's `./meta.js`, and tools/index.js's `./<tool>/meta.js`: the start chunk reads the same module.
    pluginBuild.onResolve({ filter: /^\.\/([\w-]+\/)?meta\.js$/ }, (args) => {
      const from = args.path.startsWith("./meta.js")
        ? dirname(dirname(args.importer))
        : dirname(args.importer);
      if (from !== toolsDir || args.namespace === "tool-metas") return undefined;
      toolMetaRedirects++;
      return { path: join(toolsDir, "all-metas"), namespace: "tool-metas" };
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: "tool-metas" }, () => ({
      contents: readdirSync(toolsDir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(join(toolsDir, entry.name, "meta.js")))
        .map((entry) => `export * from ${JSON.stringify(`./${entry.name}/meta.js`)};`)
        .join("\n"),
      resolveDir: toolsDir,
      loader: "js",
    }));
  },
};

/**
 * What a start loads, grouped by the commands that load it (scripts/groupChunks.mjs): each group is one
 * file, holding its roots' modules and what they import that no earlier group holds. Roots are modules
 * that are imported dynamically (esbuild's entry points). A `keel hook` process loads client, cli and
 * hook, plus the judged tool (each tool is a file with what only it uses, and tools-common); `keel check`
 * adds check; `keel mcp` adds mcp and every tool.
 */
const GROUPS = [
  // Imported by bin/keel.js first, for `hook` and `check`: it must not pull in the rest.
  { name: "client", roots: ["cli/decisionServer/client.js"] },
  { name: "cli", roots: ["cli/main.js"] },
  // Deciding one call of another agent: src/guard/leanPath.test.ts says what this may hold.
  {
    name: "hook",
    roots: [
      "cli/commands/hook.js",
      "cli/quickStart.js",
      "guard/handle.js",
      "guard/decide.js",
      "shell/analyze/grammar/parse.js",
    ],
  },
  { name: "check", roots: ["cli/commands/check.js", "mcp/config.js"] },
  // `keel tool`: the call through the pipeline.
  { name: "tool", roots: ["cli/commands/tool.js"] },
  { name: "mcp", roots: ["cli/commands/mcp.js", "mcp/serveStdio.js"] },
];
/** The modules of the tools Keel judges for other agents (their metas say so): what one-call processes load. */
async function judgedToolModules() {
  const modules = [];
  for (const entry of readdirSync(toolsDir, { withFileTypes: true })) {
    const folder = join(toolsDir, entry.name);
    if (!entry.isDirectory() || !existsSync(join(folder, "meta.js"))) continue;
    const metas = Object.values(await import(pathToFileURL(join(folder, "meta.js")).href));
    if (!metas.some((meta) => meta?.judgesAgentCalls === true)) continue;
    const tool = readdirSync(folder).find((name) => /^[A-Z]\w*Tool\.js$/.test(name));
    if (tool) modules.push(join(folder, tool));
  }
  return modules;
}

/** About 30 groups and the tools, plus the files of commands that start rarely (the agent, the worker). */
const MAX_FILES = 200;

rmSync(outdir, { recursive: true, force: true });
rmSync(stageDir, { recursive: true, force: true });
try {
  const { metafile } = await build({
    // The decision server's client is what bin/keel.js loads before anything else for `hook` and `check`.
    entryPoints: { main: join(dist, "cli/main.js"), client: join(dist, "cli/decisionServer/client.js") },
    outdir: stageDir,
    metafile: true,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node22",
    external: EXTERNAL,
    // Bundled CommonJS packages (ajv, cross-spawn...) call require(): give every chunk one.
    banner: {
      js: 'import { createRequire as __keelCreateRequire } from "node:module"; const require = __keelCreateRequire(import.meta.url);',
    },
    plugins: [
      siblingFiles,
      ajvOnDemand,
      zodEnglishOnly,
      commanderLazyChildProcess,
      fsWithoutFacade,
      lazyBuiltins,
      toolMetasTogether,
    ],
    // Without comments and indentation there is less to read and checksum at every start, and the
    // chunks are pure ASCII (a comment with an em dash made a whole chunk a two-byte string):
    // ~20 ms less per `keel tool` here. Names stay, so stack traces still read.
    minifyWhitespace: true,
    logLevel: "warning",
    legalComments: "none",
  });
  if (ajvRedirects === 0)
    process.stderr.write(
      "bundle-cli: warning: the MCP SDK no longer imports ../validation/ajv-provider.js; ajv loads at start\n",
    );
  if (fsRedirects === 0) process.stderr.write("bundle-cli: warning: nothing imports node:fs any more?\n");
  if (lazyBuiltinRedirects === 0)
    process.stderr.write(
      "bundle-cli: warning: no ES import of child_process, crypto or fs/promises to defer\n",
    );
  if (toolMetaRedirects === 0)
    process.stderr.write("bundle-cli: warning: no tool imports its ./meta.js; each meta may be a chunk\n");
  if (commanderRewrites === 0)
    process.stderr.write(
      "bundle-cli: warning: commander's child_process require changed; it loads at start\n",
    );
  if (zodLocaleRedirects === 0)
    process.stderr.write(
      "bundle-cli: warning: zod no longer imports ../locales/index.js; every locale is bundled\n",
    );
  const files = await groupChunks({
    dist,
    stageDir,
    outdir,
    metafile,
    entries: { main: "main.js", client: "client.js" },
    groups: GROUPS.map(({ name, roots }) => ({ name, roots: roots.map((root) => join(dist, root)) })),
    tools: {
      after: "hook",
      hot: await judgedToolModules(),
      shared: "tools-shared",
      rest: "tools",
      isTool: (module) => module.startsWith(`${toolsDir}/`) && /Tool\.js$/.test(module),
    },
    sourcesFile: join(dist, "cli-bundle.sources.json"),
  });
  rmSync(stageDir, { recursive: true, force: true });
  if (files > MAX_FILES) throw new Error(`${files} files: more than the ${MAX_FILES} expected`);
  for (const name of readdirSync(outdir)) {
    const code = readFileSync(join(outdir, name), "utf8");
    // A sibling-file URL left as it was would point into cli-bundle/, where no such file is.
    const left = code.match(/new URL\(["'`]\.\/[^)]*import\.meta\.url\)/);
    if (left) throw new Error(`${name} still reads ${left[0]} relative to the bundle`);
    // CommonJS that locates files by its own folder breaks once moved: such a package must stay external.
    const bare = transformSync(code, { minifyWhitespace: true, format: "esm", loader: "js" }).code;
    const located = bare.match(/.{0,60}\b(__dirname|__filename)\b.{0,30}/);
    if (located) throw new Error(`${name} uses ${located[1]} (${located[0]}): add its package to EXTERNAL`);
  }
} catch (error) {
  rmSync(outdir, { recursive: true, force: true });
  rmSync(stageDir, { recursive: true, force: true });
  process.stderr.write(`bundle-cli: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
