// The second pass of scripts/bundle-cli.mjs: esbuild splits the CLI into a chunk per set of importers
// (about 240 files), so `keel hook` loaded ~70 of them and `keel mcp` ~150, at ~0.3 ms a file. Rollup
// regroups esbuild's chunks: each group below becomes one file, holding its roots' static imports that
// no earlier group holds. A group only imports earlier groups (or itself), so no file imports a file
// that imports it back, and the modules still run in the order esbuild's chunks ran them.
import { writeFileSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { rollup } from "rollup";

/** esbuild's outputs by absolute path: their static imports, the module they are the entry of, their modules. */
function readMetafile(metafile) {
  const outputs = new Map();
  for (const [path, output] of Object.entries(metafile.outputs)) {
    if (!path.endsWith(".js")) continue;
    outputs.set(resolve(path), {
      staticImports: output.imports
        .filter((entry) => entry.kind === "import-statement" && !entry.external)
        .map((entry) => resolve(entry.path)),
      entryPoint: output.entryPoint ? resolve(output.entryPoint) : undefined,
      // Modules of esbuild plugins' namespaces (`fs-required:node:fs`) keep their names.
      inputs: Object.keys(output.inputs).map((input) => (/^[\w-]+:/.test(input) ? input : resolve(input))),
      // No code of its own: an entry that only re-exports what esbuild put in shared chunks.
      reExportsOnly: Object.values(output.inputs).every((input) => input.bytesInOutput === 0),
    });
  }
  return outputs;
}

function staticClosure(outputs, roots) {
  const seen = new Set();
  const stack = [...roots];
  while (stack.length > 0) {
    const file = stack.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    stack.push(...(outputs.get(file)?.staticImports ?? []));
  }
  return seen;
}

/**
 * Which group each of esbuild's chunks goes to: the named groups in order, each taking its roots' static
 * imports that no earlier group took. `tools` ({ after, hot: [modules], rest }) places the tools: after the
 * named group `after`, each hot tool (those a one-call process loads) is a group with what only it uses,
 * and what several hot tools share is one group; every other tool and what only they use is group `rest`,
 * after all named groups. So a hot tool's files never import a later named group's. Throws when a root is
 * not one of esbuild's entry points (a file renamed, or imported statically now): the grouping would
 * silently stop working.
 */
export function assignGroups(outputs, groups, tools) {
  const entryChunk = new Map();
  for (const [file, output] of outputs) if (output.entryPoint) entryChunk.set(output.entryPoint, file);
  const chunkOf = (root, group) => {
    const chunk = entryChunk.get(resolve(root));
    if (!chunk) throw new Error(`group ${group}: ${root} is not an entry point of the bundle`);
    return chunk;
  };
  const groupOf = new Map();
  const assign = (name, files) => {
    for (const file of files) if (!groupOf.has(file)) groupOf.set(file, name);
  };
  const placeHotTools = () => {
    const reach = tools.hot.map((tool) => ({
      name: basename(tool, ".js"),
      files: [...staticClosure(outputs, [chunkOf(tool, "tools")])].filter((file) => !groupOf.has(file)),
    }));
    const reachedBy = new Map();
    for (const { files } of reach)
      for (const file of files) reachedBy.set(file, (reachedBy.get(file) ?? 0) + 1);
    for (const { name, files } of reach)
      assign(
        name,
        files.filter((file) => reachedBy.get(file) === 1),
      );
    assign(tools.shared, [...reachedBy.keys()]);
  };
  for (const group of groups) {
    assign(
      group.name,
      staticClosure(
        outputs,
        group.roots.map((root) => chunkOf(root, group.name)),
      ),
    );
    if (group.name === tools.after) placeHotTools();
  }
  const rest = [...entryChunk].filter(([source, chunk]) => tools.isTool(source) && !groupOf.has(chunk));
  assign(
    tools.rest,
    staticClosure(
      outputs,
      rest.map(([, chunk]) => chunk),
    ),
  );
  joinReExports(outputs, groupOf);
  return groupOf;
}

/**
 * An entry that only re-exports (a module imported dynamically whose code esbuild put in shared chunks,
 * like the analyzer's front end that the guard imports for Bash calls) would be a file of its own, one
 * more file to load. It joins the group among those it imports that already imports all the others, so
 * loading it loads nothing more than before and no group gains an import of a later one. Without such a
 * group it stays a file.
 */
function joinReExports(outputs, groupOf) {
  const importsOf = new Map();
  for (const [file, output] of outputs) {
    const group = groupOf.get(file);
    if (group === undefined) continue;
    if (!importsOf.has(group)) importsOf.set(group, new Set());
    for (const chunk of output.staticImports)
      if (groupOf.has(chunk)) importsOf.get(group).add(groupOf.get(chunk));
  }
  const reaches = (from, to) => {
    const seen = new Set();
    const stack = [from];
    while (stack.length > 0) {
      const group = stack.pop();
      if (group === to) return true;
      if (seen.has(group)) continue;
      seen.add(group);
      stack.push(...(importsOf.get(group) ?? []));
    }
    return false;
  };
  for (const [file, output] of outputs) {
    if (groupOf.has(file) || !output.entryPoint || !output.reExportsOnly) continue;
    const imported = [...new Set(output.staticImports.map((chunk) => groupOf.get(chunk)))];
    if (imported.length === 0 || imported.includes(undefined)) continue;
    const home = imported.find((group) => imported.every((other) => reaches(group, other)));
    if (home !== undefined) groupOf.set(file, home);
  }
}

/** A module as sources.json names it: `cli/main.js` (of dist), `node_modules/zod/v4/core/core.js` (a package). */
function sourceName(dist, input) {
  if (!input.startsWith("/")) return input;
  const ofDist = relative(dist, input);
  if (!ofDist.startsWith("..")) return ofDist;
  const inPackage = input.lastIndexOf("/node_modules/");
  return inPackage === -1 ? input : input.slice(inPackage + 1);
}

/**
 * Regroups esbuild's output in `stageDir` (described by `metafile`) into `outdir`. `entries` names the
 * files bin/keel.js imports ({ main: "main.js", ... }, relative to stageDir). Writes `sourcesFile`: each
 * final file and the modules of dist it holds (what the bundle test checks a hook process loads).
 */
export async function groupChunks({ dist, stageDir, outdir, metafile, entries, groups, tools, sourcesFile }) {
  const outputs = readMetafile(metafile);
  // KEEL_BUNDLE_DEBUG=<file>: esbuild's metafile is written there, to see which modules went where.
  if (process.env.KEEL_BUNDLE_DEBUG) writeFileSync(process.env.KEEL_BUNDLE_DEBUG, JSON.stringify(metafile));
  const groupOf = assignGroups(outputs, groups, tools);
  const warnings = [];
  const bundle = await rollup({
    input: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, join(stageDir, file)])),
    // Packages and built-ins stay imports, as esbuild left them.
    external: (id) => !id.startsWith(".") && !id.startsWith("/"),
    // esbuild's chunks are already what runs: regroup them, change nothing inside.
    treeshake: false,
    onwarn: (warning) => warnings.push(warning),
    // The entry files may export more than their own exports: then they hold their groups, no facade files.
    preserveEntrySignatures: "allow-extension",
  });
  const { output } = await bundle.write({
    dir: outdir,
    format: "es",
    entryFileNames: "[name].js",
    chunkFileNames: "[name]-[hash].js",
    manualChunks: (id) => groupOf.get(id),
    compact: true,
  });
  await bundle.close();
  // A circular chunk would run modules out of order: the groups are built so that it cannot happen.
  const circular = warnings.find((warning) => warning.code === "CIRCULAR_CHUNK");
  if (circular) throw new Error(`rollup: ${circular.message}`);
  const sources = {};
  for (const chunk of output) {
    if (chunk.type !== "chunk") continue;
    sources[chunk.fileName] = Object.keys(chunk.modules)
      .flatMap((id) => outputs.get(id)?.inputs ?? [])
      .map((input) => sourceName(dist, input));
  }
  writeFileSync(sourcesFile, `${JSON.stringify(sources, null, 1)}\n`);
  return output.filter((chunk) => chunk.type === "chunk").length;
}
