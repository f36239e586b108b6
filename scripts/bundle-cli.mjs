// Bundles the compiled CLI (dist/cli/main.js and everything of Keel's own it imports) into a few
// chunks under dist/cli-bundle/, which bin/keel.js runs. A start then loads a handful of files instead
// of a few hundred (about 50 ms off `keel mcp`'s spawn-to-tools/list). npm packages stay external.
// Files Keel reads beside its modules (`new URL("./prompt.md", import.meta.url)`) keep coming from
// dist/: those URLs are rewritten relative to the bundle.
//   node scripts/bundle-cli.mjs [dist folder]     (default: dist)
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { build } from "esbuild";

const dist = resolve(process.argv[2] ?? "dist");
const outdir = join(dist, "cli-bundle");

/** `new URL("./x", import.meta.url)` and `` new URL(`./x/${y}`, import.meta.url) `` in a file of `folder`. */
const SIBLING_URL = /new URL\((["'`])\.\/([^"'`]*)\1, import\.meta\.url\)/g;

const siblingFiles = {
  name: "keel-sibling-files",
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /\.js$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      if (!source.includes("import.meta.url")) return undefined;
      const prefix = relative(outdir, dirname(args.path)).split("\\").join("/");
      const contents = source.replace(
        SIBLING_URL,
        (_match, quote, rest) => `new URL(${quote}${prefix}/${rest}${quote}, import.meta.url)`,
      );
      return { contents, loader: "js" };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
try {
  await build({
    entryPoints: { main: join(dist, "cli/main.js") },
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node22",
    packages: "external",
    plugins: [siblingFiles],
    logLevel: "warning",
    legalComments: "none",
  });
  // A sibling-file URL left as it was would point into cli-bundle/, where no such file is.
  for (const name of readdirSync(outdir)) {
    const left = readFileSync(join(outdir, name), "utf8").match(/new URL\(["'`]\.\/[^)]*import\.meta\.url\)/);
    if (left) throw new Error(`${name} still reads ${left[0]} relative to the bundle`);
  }
} catch (error) {
  rmSync(outdir, { recursive: true, force: true });
  process.stderr.write(`bundle-cli: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
